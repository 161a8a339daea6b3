package fakeprovider

import "github.com/webcoding/studio/host/httpclient"

// MaxResponseBytes bounds the body an HTTPTransport reads (httpclient.MaxResponseBytes).
const MaxResponseBytes = httpclient.MaxResponseBytes

// HTTPTransport is the host's net/http openrouter.Transport (moved to host/httpclient): it
// adds "Authorization: Bearer <APIKey>" itself and refuses origins not in AllowedOrigins.
type HTTPTransport = httpclient.Transport
