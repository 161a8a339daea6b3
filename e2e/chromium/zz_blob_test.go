package chromium

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZBlobFrame(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><div id=h></div><script>
window.got = [];
addEventListener("message", (e) => { got.push(String(e.data)); });
var f = document.createElement("iframe");
f.setAttribute("sandbox", "allow-scripts allow-forms allow-modals allow-popups");
var html = "<html><body><p id=t style='margin-top:2000px'>t</p><a id=a href='#t'>a</a><script>var out = [];" +
 "window.onhashchange = function(e){ out.push('hashchange ' + location.hash + ' ' + e.oldURL.slice(-3) + ' ' + e.newURL.slice(-3) + ' ' + scrollY + ' ' + document.querySelectorAll(':target').length) }; window.onpopstate = function(e){ out.push('popstate ' + location.hash + ' ' + e.state + ' ' + scrollY) };" +
 "try { location.hash = '#t'; out.push('set ' + location.hash + ' ' + scrollY + ' ' + history.length); } catch (e) { out.push('set ERR ' + e) }" + "location.hash = '#t'; out.push('again ' + history.length);" +
 "try { history.pushState(null, '', '#p'); out.push('push ' + location.hash); } catch (e) { out.push('push ERR ' + e.name) }" +
 "try { history.replaceState(null, '', location.href.split('#')[0] + '#r'); out.push('replace ' + location.hash); } catch (e) { out.push('replace ERR ' + e.name) }" +
 "setTimeout(function(){ document.getElementById('a').click(); setTimeout(function(){ out.push('click ' + location.hash + ' ' + scrollY); window.got = out }, 300) }, 300);" +
 "<\/script>";
document.open(); document.write(html); document.close();
document.getElementById("h").appendChild(f);
f.onload = function () { got.push("load"); };
</script>`))
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	tab := NewTab(t)
	if err := tab.Do(20*time.Second, chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	got, err := Eval[[]string](tab, 5*time.Second, `got`)
	fmt.Println("GOT", got, err)
	for _, c := range tab.Console() {
		fmt.Println("CONSOLE", c.Level, c.Text)
	}
}
