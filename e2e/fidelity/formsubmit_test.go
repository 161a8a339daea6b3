package fidelity

// form.submit() (no submit event) and a form in a frame page whose <base target> names a
// frame (docs/design.md §5.48): over HTTP, submit() navigates to the action with the form's
// data; the preview's sandbox (no allow-forms) dropped the browser's own submission, so the
// page stayed and the status said ready. Now it goes through the runtime like a submit event.
func init() {
	fidelitySites = append(fidelitySites, fidelitySite{name: "form-submit-call", want: "r ?q=z&n=2", files: map[string]string{
		"index.html": `<!doctype html><title>i</title>` + probe + `<form id="f" action="r.html"><input name="q" value="z"><input name="n" value="2"></form><script>
addEventListener("load", function () { setTimeout(function () { document.getElementById("f").submit(); }, 50); });
</script>`,
		"r.html": `<!doctype html><title>r</title>` + probe + `<script>log("r " + location.search); log("done");</script>`,
	}})
}
