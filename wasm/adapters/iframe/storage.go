package iframe

import (
	"unicode/utf16"

	"github.com/webcoding/studio/wasm/preview"
)

// storageAreas is the preview's storage of one workspace: Web Storage's "local" and "session"
// and the cookie jar "cookie" (name → value), each bounded by preview.MaxPreviewStorageChars (UTF-16 code units of keys plus values, as the
// frame counts). A change that would pass the bound is dropped (the frame already refused it
// with QuotaExceededError, so only a hostile frame sends one).
type storageAreas struct {
	areas map[string]map[string]string
	used  map[string]int
}

func newStorageAreas() storageAreas {
	return storageAreas{areas: map[string]map[string]string{"local": {}, "session": {}, "cookie": {}}, used: map[string]int{}}
}

func units(s string) int { return len(utf16.Encode([]rune(s))) }

// apply applies one MessageStorage: clear first, then set (nil value = remove).
func (s *storageAreas) apply(area string, clear bool, set map[string]*string) {
	a, ok := s.areas[area]
	if !ok {
		return
	}
	if clear {
		a = map[string]string{}
		s.areas[area], s.used[area] = a, 0
	}
	for k, v := range set {
		old, had := a[k]
		delta := 0
		if had {
			delta -= units(k) + units(old)
		}
		if v == nil {
			if had {
				delete(a, k)
				s.used[area] += delta
			}
			continue
		}
		delta += units(k) + units(*v)
		if s.used[area]+delta > preview.MaxPreviewStorageChars {
			continue
		}
		a[k] = *v
		s.used[area] += delta
	}
}

// snapshot copies the areas for a RuntimeConfig (nil when all are empty).
func (s *storageAreas) snapshot() *preview.RuntimeStorage {
	if len(s.areas["local"]) == 0 && len(s.areas["session"]) == 0 && len(s.areas["cookie"]) == 0 {
		return nil
	}
	cp := func(m map[string]string) map[string]string {
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	return &preview.RuntimeStorage{Local: cp(s.areas["local"]), Session: cp(s.areas["session"]), Cookie: cp(s.areas["cookie"])}
}
