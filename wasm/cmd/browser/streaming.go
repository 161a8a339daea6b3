//go:build js && wasm

package main

import (
	"strconv"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/ui/views"
)

// Streamed replies in the chat (issue 16; docs/design.md §5.16). The provider loop hands
// each text fragment to onStreamText (studio.OpenRouterOptions.OnText). The fragment extends
// ONE transcript entry per turn of the running run (key "<run id>-t<turn>"); a retry of the
// turn starts that entry's text again. The state change asks for a render at most once per
// animation frame, and the render appends the new text to the entry's text element alone
// when nothing else changed (views.TextAppended), instead of morphing the transcript.

type streamState struct {
	mu      sync.Mutex
	run     string      // JSON-RPC id of the running provider run ("" → fragments dropped)
	attempt map[int]int // turn → attempt whose text the entry shows
	keys    []string    // entry keys of the run's streamed turns, in order
	frame   bool        // a requestAnimationFrame is pending
}

// beginStream starts collecting fragments for run id.
func (s *streamState) begin(id string) {
	s.mu.Lock()
	s.run, s.attempt, s.keys = id, map[int]int{}, nil
	s.mu.Unlock()
}

// end stops collecting and returns the keys of the entries the run streamed into.
func (s *streamState) end() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := s.keys
	s.run, s.keys = "", nil
	return keys
}

// current returns the key of the entry the running run's latest turn streams into ("" when
// no reply is streaming): the reply a save during the run keeps as incomplete (chats.go).
func (s *streamState) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run == "" || len(s.keys) == 0 {
		return ""
	}
	return s.keys[len(s.keys)-1]
}

// onStreamText is the OnText of the page's provider loop.
func (a *app) onStreamText(d openrouter.TextDelta) {
	s := a.streaming
	s.mu.Lock()
	if s.run == "" || d.Text == "" {
		s.mu.Unlock()
		return
	}
	key := s.run + "-t" + strconv.Itoa(d.Turn)
	restart := s.attempt[d.Turn] != 0 && s.attempt[d.Turn] != d.Attempt
	isNew := s.attempt[d.Turn] == 0
	s.attempt[d.Turn] = d.Attempt
	if isNew {
		s.keys = append(s.keys, key)
	}
	s.mu.Unlock()
	a.mu.Lock()
	found := false
	for i := range a.st.transcript {
		if a.st.transcript[i].Key == key {
			if restart {
				a.st.transcript[i].Text = d.Text
			} else {
				a.st.transcript[i].Text += d.Text
			}
			found = true
			break
		}
	}
	a.mu.Unlock()
	if !found {
		a.addEntry(entry{Kind: "agent", Key: key, Text: d.Text})
		return
	}
	a.chatsStreamed() // chats.go: the grown text is kept by the next save
	s.requestFrame(a)
}

// requestFrame asks for one render on the next animation frame (at most one pending).
func (s *streamState) requestFrame(a *app) {
	s.mu.Lock()
	if s.frame {
		s.mu.Unlock()
		return
	}
	s.frame = true
	s.mu.Unlock()
	var cb js.Func
	cb = jsbridge.Func("streaming.frame", func(js.Value, []js.Value) any {
		cb.Release()
		s.mu.Lock()
		s.frame = false
		s.mu.Unlock()
		a.markDirty()
		return nil
	})
	js.Global().Call("requestAnimationFrame", cb)
}

// streamedText returns the text of the entry with key ("" when it is gone).
func (a *app) streamedText(key string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range a.st.transcript {
		if e.Key == key {
			return e.Text
		}
	}
	return ""
}

// setStreamedText sets the text of the entry with key (the final answer of a streamed turn).
func (a *app) setStreamedText(key, text string) {
	a.mu.Lock()
	for i := range a.st.transcript {
		if a.st.transcript[i].Key == key {
			a.st.transcript[i].Text = text
		}
	}
	a.mu.Unlock()
	a.markDirty()
}

// markStreamed changes the entry with key to kind with details (a reply cut by Cancel or a
// failure keeps its text and says so).
func (a *app) markStreamed(key, kind, details string) {
	a.mu.Lock()
	for i := range a.st.transcript {
		if a.st.transcript[i].Key == key {
			a.st.transcript[i].Kind, a.st.transcript[i].Details = kind, details
		}
	}
	a.mu.Unlock()
	a.markDirty()
}

// transcriptCounts (app.transcriptStats) counts how #transcript was updated: "appends" (text appended to one
// element) and "morphs" (the region re-rendered), published as window.webcodingTranscriptStats
// for the browser tests.
type transcriptCounts struct{ appends, morphs int }

// patchTranscript updates #transcript for list: an append to one text element when only
// that entry's text grew since the last render, else the keyed morph. It reports whether
// the region changed.
func (a *app) patchTranscript(list []entry) bool {
	prev := a.memoEntries
	html := a.transcriptHTML(list)
	if a.lastHTML["transcript"] == string(html) {
		return false
	}
	if id, suffix, ok := views.TextAppended(prev, list); ok && a.lastHTML["transcript"] != "" {
		if a.appendRegionText("transcript", id, suffix) {
			a.lastHTML["transcript"] = string(html) // the DOM now holds what html describes
			a.transcriptStats.appends++
			a.publishTranscriptStats()
			return true
		}
	}
	changed := a.setRegion("transcript", html)
	if changed {
		a.transcriptStats.morphs++
		a.publishTranscriptStats()
	}
	return changed
}

func (a *app) publishTranscriptStats() {
	o := js.Global().Get("Object").New()
	o.Set("appends", a.transcriptStats.appends)
	o.Set("morphs", a.transcriptStats.morphs)
	js.Global().Set("webcodingTranscriptStats", o)
}

// usageTotal (app.sessionUsage) is the session usage (the page's provider runs since it loaded).
type usageTotal struct {
	mu sync.Mutex
	u  openrouter.Usage
}

func viewUsage(u openrouter.Usage) views.Usage {
	return views.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, ReasoningTokens: u.ReasoningTokens,
		CachedTokens: u.CachedTokens, TotalTokens: u.TotalTokens, Cost: u.Cost}
}

// usageEntry adds the run's usage to the session total and returns the transcript text
// (views.UsageSummary), "" when the run reported none.
func (a *app) usageEntry(run *openrouter.Usage, turns []openrouter.Usage) string {
	if run == nil {
		return ""
	}
	a.sessionUsage.mu.Lock()
	a.sessionUsage.u.Add(*run)
	session := a.sessionUsage.u
	a.sessionUsage.mu.Unlock()
	vt := make([]views.Usage, len(turns))
	for i, t := range turns {
		vt[i] = viewUsage(t)
	}
	setText("provider-usage", "Session: "+views.UsageLine(viewUsage(session)))
	return views.UsageSummary(vt, viewUsage(*run), viewUsage(session))
}
