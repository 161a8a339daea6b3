package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKorean covers the Korean keywords of REFERENCE §7.1 through plan building.
func TestKorean(t *testing.T) {
	status := c(ToolGetStatus)
	list := c(ToolListFiles)
	tests := []struct {
		prompt string
		want   []Call
	}{
		{"작업공간을 초기화해줘", []Call{status, c(ToolReset)}},
		{"처음부터 다시 시작하자", []Call{status, c(ToolReset)}},
		{"기본 예제로 돌려줘", []Call{status, c(ToolReset)}},
		{"reset 상태", []Call{status, c(ToolReset)}},
		{"작업공간 상태 보여줘", []Call{status}},
		{"폴더 연결 상태는?", []Call{status}},
		{"폴더에 저장 가능한지 알려줘", []Call{status}},
		{"미리보기 상태 알려줘", []Call{c(ToolPreviewStatus)}},
		{"index.html 이름 변경해서 home.html로 해줘", []Call{status, list,
			c(ToolRenameFile, "fromPath", "index.html", "toPath", "home.html")}},
		{"파일 이름을 app.js에서 main.js로 바꿔줘", []Call{status, list,
			c(ToolRenameFile, "fromPath", "app.js", "toPath", "main.js")}},
		{"notes.md 파일 삭제해줘", []Call{status, list, c(ToolDeleteFile, "path", "notes.md")}},
		{"파일 지워줘", []Call{list}},
		{"새 파일 todo.md 추가", []Call{status, c(ToolCreateFile, "path", "todo.md", "source", DefaultCreateSource)}},
		{"새 파일 만들어줘", []Call{status, c(ToolCreateFile, "path", "notes.md", "source", DefaultCreateSource)}},
		{"보라색으로 바꿔줘", []Call{status, c(ToolSetTheme, "theme", "violet")}},
		{"초록색으로 바꿔줘", []Call{status, c(ToolSetTheme, "theme", "emerald")}},
		{"에메랄드로 바꿔줘", []Call{status, c(ToolSetTheme, "theme", "emerald")}},
		{"주황색 테마로", []Call{status, c(ToolSetTheme, "theme", "amber")}},
		{"분홍색으로 해줘", []Call{status, c(ToolSetTheme, "theme", "rose")}},
		{"기능 카드 추가해줘", []Call{status,
			c(ToolAddFeature, "title", DefaultFeatureTitle, "description", DefaultFeatureDescription)}},
		{"기능 카드 「빠른 미리보기」 「저장 없이 바로 확인」 추가", []Call{status,
			c(ToolAddFeature, "title", "빠른 미리보기", "description", "저장 없이 바로 확인")}},
		{"히어로 제목을 \"대화로 만든 페이지\"로 바꿔줘", []Call{status,
			c(ToolUpdateHero, "title", "대화로 만든 페이지")}},
		{"되돌리기", []Call{status, c(ToolUndo)}},
		{"방금 바꾼 거 되돌려줘", []Call{status, c(ToolUndo)}},
		{"README.md 파일 지우기", []Call{status, list, c(ToolDeleteFile, "path", "README.md")}},
		{"작업 공간 초기화", []Call{status, c(ToolReset)}},
		{"Reset 프로젝트", []Call{status, c(ToolReset)}},
		{"방금 수정 실행 취소해줘", []Call{status, c(ToolUndo)}},
		{"다시 실행", []Call{status, c(ToolRedo)}},
		{"저장해줘", []Call{status, c(ToolSaveCheckpoint)}},
		{"폴더 다시 읽어줘", []Call{status, c(ToolReloadFolder)}},
		{"폴더 연결 해제해줘", []Call{status, c(ToolDisconnectFolder)}},
		{"미리보기 새로고침", []Call{status, c(ToolPreviewRefresh)}},
		{"styles.css 열어줘", []Call{c(ToolOpenFile, "path", "styles.css")}},
		{"현재 파일 다운로드", []Call{status, list, c(ToolDownloadFile, "path", "index.html")}},
		{"index.html에서 \"old\"를 \"new\"로 교체해줘", []Call{status, list, c(ToolReadFile, "path", "index.html"),
			c(ToolApplyPatch, "path", "index.html", "search", "old", "replace", "new", "occurrence", "first")}},
	}
	for _, tt := range tests {
		got := BuildPlan(tt.prompt, false, "index.html")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("BuildPlan(%q) mismatch (-want +got):\n%s", tt.prompt, diff)
		}
	}
}

// TestQuotedTextNeverTriggersKeywords is the fix of issue 3: keywords inside quotes are
// data. Each prompt's quoted text holds a keyword that would otherwise add a call.
func TestQuotedTextNeverTriggersKeywords(t *testing.T) {
	tests := []struct {
		prompt string
		want   []string
	}{
		{`Change index.html from "text that is not in this file" to "new text"`,
			[]string{ToolApplyPatch}},
		{`Replace "create a new file" with "delete the file" in README.md`,
			[]string{ToolApplyPatch}},
		{`Replace "green" with "pink" in styles.css`, []string{ToolApplyPatch}},
		{`Change app.js from "undo()" to "redo()"`, []string{ToolApplyPatch}},
		{`Edit index.html: replace "save the hero card" with "open the preview status"`, []string{ToolApplyPatch}},
		{`Replace 'reset workspace' with 'x' and “status” with “y”`, []string{ToolApplyPatch}},
		{`Add a feature card "Save and reload the folder" "Reset demo workspace status"`, []string{ToolAddFeature}},
		{`「새 파일」 「삭제」 카드`, []string{ToolAddFeature}},
		// Only quoted text: nothing matches, so the catch-all listFiles.
		{`"make it emerald"`, []string{ToolListFiles}},
	}
	for _, tt := range tests {
		got := ToolNames(PromptToToolCalls(tt.prompt))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("PromptToToolCalls(%q) mismatch (-want +got):\n%s", tt.prompt, diff)
		}
	}
}

func TestQuotedTextPatch(t *testing.T) {
	tests := []struct {
		prompt string
		want   []Call
	}{
		// Curly quotes, default path.
		{"Replace “Hello” with “Bonjour”", []Call{
			c(ToolApplyPatch, "path", "index.html", "search", "Hello", "replace", "Bonjour", "occurrence", "first")}},
		// Keyword path fallback.
		{`Change "red" to "blue" in the styles`, []Call{
			c(ToolApplyPatch, "path", "styles.css", "search", "red", "replace", "blue", "occurrence", "first")}},
		// A quoted path is the path and not a patch value.
		{`Replace "a" with "b" in "src/app.js"`, []Call{
			c(ToolApplyPatch, "path", "src/app.js", "search", "a", "replace", "b", "occurrence", "first")}},
		// Values are trimmed; blank values do not count.
		{`Replace "  a  " "   " with " b "`, []Call{
			c(ToolApplyPatch, "path", "index.html", "search", "a", "replace", "b", "occurrence", "first")}},
		// One value is not a patch.
		{`Replace "a" in index.html`, []Call{c(ToolListFiles)}},
		// No edit verb: no patch.
		{`"a" "b" index.html`, []Call{c(ToolListFiles)}},
		// Single quotes do not make a patch (double quotes only).
		{`Replace 'a' with 'b'`, []Call{c(ToolListFiles)}},
		// A visual-copy request without a path goes to the preview tool, not a patch.
		{`Change the card title "A" to "B"`, []Call{
			c(ToolAddFeature, "title", "A", "description", "B")}},
		// With an explicit path the copy is an exact patch.
		{`Change the hero title in index.html from "A" to "B"`, []Call{
			c(ToolApplyPatch, "path", "index.html", "search", "A", "replace", "B", "occurrence", "first"),
			c(ToolUpdateHero, "title", "A", "subtitle", "B")}},
		// A patch suppresses the status exit.
		{`Update the status line: replace "draft" with "final"`, []Call{
			c(ToolApplyPatch, "path", "index.html", "search", "draft", "replace", "final", "occurrence", "first")}},
	}
	for _, tt := range tests {
		got := PromptToToolCalls(tt.prompt)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("PromptToToolCalls(%q) mismatch (-want +got):\n%s", tt.prompt, diff)
		}
	}
}

func TestTriggers(t *testing.T) {
	tests := []struct {
		prompt string
		want   []Call
	}{
		// The first theme named wins (issue 14: alternatives; the reference used a fixed priority).
		{"Make it pink, or maybe green", []Call{c(ToolSetTheme, "theme", "rose")}},
		{"orange and purple", []Call{c(ToolSetTheme, "theme", "amber")}},
		{"Rose please", []Call{c(ToolSetTheme, "theme", "rose")}},
		{"VIOLET", []Call{c(ToolSetTheme, "theme", "violet")}},
		// English keywords must start a word.
		{"Write some prose", []Call{c(ToolListFiles)}},
		{"Discard this", []Call{c(ToolListFiles)}},
		{"Remove file a.md b.md", []Call{c(ToolDeleteFile, "path", "a.md")}},
		{"an evergreen idea", []Call{c(ToolListFiles)}},
		// ...but may be inflected.
		{"Add two cards", []Call{c(ToolAddFeature, "title", DefaultFeatureTitle, "description", DefaultFeatureDescription)}},
		// undo/redo are whole words.
		{"undone", []Call{c(ToolListFiles)}},
		{"Undo, then redo!", []Call{c(ToolUndo), c(ToolRedo)}},
		// Path fallbacks are whole words.
		{"Open the readme", []Call{c(ToolOpenFile, "path", "README.md")}},
		{"Show indexes", []Call{c(ToolListFiles)}},
		{"view my notes", []Call{c(ToolOpenFile, "path", "notes.md")}},
		{"Open the app", []Call{c(ToolOpenFile, "path", "app.js")}},
		{"Open the stylesheet", []Call{c(ToolListFiles)}},
		// Open needs a path and no patch or rename.
		{"Open it", []Call{c(ToolListFiles)}},
		{"Move a.md to b.md and open it", []Call{c(ToolRenameFile, "fromPath", "a.md", "toPath", "b.md")}},
		// Rename needs two distinct paths.
		{"Rename a.md to a.md", []Call{c(ToolListFiles)}},
		{"Rename a.md to a.md then b.md", []Call{c(ToolRenameFile, "fromPath", "a.md", "toPath", "b.md")}},
		// The preview word plus refresh, not a folder reload.
		{"Reload the preview", []Call{c(ToolPreviewRefresh)}},
		{"Refresh the preview from the folder", []Call{c(ToolReloadFolder)}},
		{"re-read the directory", []Call{c(ToolReloadFolder)}},
		// Create needs a file word or a path.
		{"Create a new file", []Call{c(ToolCreateFile, "path", "notes.md", "source", DefaultCreateSource)}},
		{"Create something", []Call{c(ToolListFiles)}},
		{"new file docs/guide.md", []Call{c(ToolCreateFile, "path", "docs/guide.md", "source", DefaultCreateSource)}},
		{"Make the new hero", []Call{c(ToolUpdateHero, "title", DefaultHeroTitle, "subtitle", DefaultHeroSubtitle)}},
		// Path tokens are not keywords.
		{"Delete file new-file.md", []Call{c(ToolDeleteFile, "path", "new-file.md")}},
		{"Open green.css", []Call{c(ToolOpenFile, "path", "green.css")}},
		// Hero triggers and copy.
		{"Rewrite the landing page", []Call{c(ToolUpdateHero, "title", DefaultHeroTitle, "subtitle", DefaultHeroSubtitle)}},
		{`Update the title to "Hi"`, []Call{c(ToolUpdateHero, "title", "Hi")}}, // the subtitle is kept
		{`Set the headline to 'Ship it' and the subtitle to 'Now'`, []Call{c(ToolUpdateHero, "title", "Ship it", "subtitle", "Now")}},
		// Apostrophes are not quotes.
		{"Let's add a feature card, it's great", []Call{
			c(ToolAddFeature, "title", DefaultFeatureTitle, "description", DefaultFeatureDescription)}},
		// Status exits: workspace status yields to save, folder reload, disconnect.
		{"Save and show status", []Call{c(ToolSaveAll)}},
		{"Reload folder and show status", []Call{c(ToolReloadFolder)}},
		{"Is the folder writable?", []Call{c(ToolGetStatus)}},
		{"folder sync", []Call{c(ToolGetStatus)}},
		{"What is the preview state?", []Call{c(ToolPreviewStatus)}},
		{"status of the preview", []Call{c(ToolPreviewStatus)}},
		// Reset needs an object; reset wins over everything.
		{"Reset", []Call{c(ToolListFiles)}},
		{"Start over with the demo and make it green", []Call{c(ToolReset)}},
		{"restore demo", []Call{c(ToolReset)}},
		// Export is a download.
		{"Export styles.css", []Call{c(ToolDownloadFile, "path", "styles.css")}},
		// Disconnect needs a folder word.
		{"unlink the directory", []Call{c(ToolDisconnectFolder)}},
		{"disconnect", []Call{c(ToolListFiles)}},
		// Order of appended triggers.
		{"Rename a.md to b.md, undo, refresh preview, make it amber, add a card, update the hero, save",
			[]Call{
				c(ToolRenameFile, "fromPath", "a.md", "toPath", "b.md"),
				c(ToolUndo),
				c(ToolPreviewRefresh),
				c(ToolSetTheme, "theme", "amber"),
				c(ToolAddFeature, "title", DefaultFeatureTitle, "description", DefaultFeatureDescription),
				c(ToolUpdateHero, "title", DefaultHeroTitle, "subtitle", DefaultHeroSubtitle),
				c(ToolSaveAll),
			}},
		// A folder word turns refresh into a folder reload, which comes after save.
		{"Refresh preview, save, reload and disconnect the folder", []Call{
			c(ToolSaveAll), c(ToolReloadFolder), c(ToolDisconnectFolder)}},
		// Traversal tokens are never paths.
		{"Open ../secret.md", []Call{c(ToolListFiles)}},
		{"Delete file ../../etc/passwd.txt", []Call{c(ToolListFiles)}},
		{"Open ../x.md or y.md", []Call{c(ToolOpenFile, "path", "y.md")}},
	}
	for _, tt := range tests {
		got := PromptToToolCalls(tt.prompt)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("PromptToToolCalls(%q) mismatch (-want +got):\n%s", tt.prompt, diff)
		}
	}
}

// TestOverlongValuesAreNotTruncated: the planner passes quoted values as written; the
// tool's schema refuses them.
func TestOverlongValuesAreNotTruncated(t *testing.T) {
	long := make([]rune, 100)
	for i := range long {
		long[i] = 'é'
	}
	title := string(long)
	got := PromptToToolCalls(`Add a feature card "` + title + `"`)
	if len(got) != 1 || got[0].Arguments["title"] != title {
		t.Fatalf("title was changed: %#v", got)
	}
}
