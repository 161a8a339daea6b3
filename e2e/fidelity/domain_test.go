package fidelity

// document.domain reads the page's host, and setting it to itself works, as over HTTP: in the
// sandboxed frame it read "" and its setter threw SecurityError, which stopped old scripts that
// write `document.domain = document.domain` (found on 2026-12-07 with a probe page next to
// scripts/realsites-third.txt). Another domain is refused in both.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "document-domain", want: "same true", files: map[string]string{
		"index.html": `<!doctype html><title>d</title>` + probe + `<script>
log("same " + (document.domain === location.hostname) + " type " + typeof document.domain);
try { document.domain = document.domain; log("set self ok " + (document.domain === location.hostname)); } catch (e) { log("set self " + e.name); }
try { document.domain = "example.com"; log("set other ok"); } catch (e) { log("set other " + e.name + " " + (e instanceof DOMException)); }
log("done");
</script>`,
	}})
}
