package agent

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func allKeywords() []*keyword {
	ks := []*keyword{reResetKR, reResetVerb, reResetObject, reDelete, reFileWord, reSave,
		reSaveQuestion, reDisconnect, reFolderWord, reReloadVerb, reStatus, rePreviewWord,
		reStateWord, reRename, reOpen, reDownload, reUndo, reRedo, reVisualCopy, reEditVerb,
		reRefreshVerb, reCreate, reNewFile, reNewWord, reFeature, reHero, reHeroCopy}
	for _, th := range themeKeywords {
		ks = append(ks, th.re)
	}
	for _, f := range pathFallbacks {
		ks = append(ks, f.re)
	}
	return ks
}

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
		ok      bool
	}{
		{`\bundo\b`, []string{"undo"}, true},
		{`\b(?:reload|re-read|refresh)|다시\s*읽`, []string{"re", "다시"}, true}, // the parser factors "re"
		{`디렉[터토]리`, []string{"디렉"}, true},
		{`[ab]c`, nil, false},
		{`(?i)abc`, nil, false},
		{`x*`, nil, false},
	}
	for _, tt := range tests {
		re, err := syntax.Parse(tt.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := requiredLiterals(re)
		if ok != tt.ok || !cmp.Equal(got, tt.want) {
			t.Errorf("requiredLiterals(%q) = %q, %v; want %q, %v", tt.pattern, got, ok, tt.want, tt.ok)
		}
	}
}

// TestKeywordPrefilter checks that every keyword has a prefilter and that the prefilter
// never changes the answer of its regexp.
func TestKeywordPrefilter(t *testing.T) {
	words := []string{"reset", "start over", "restore demo", "workspace", "demo", "delete", "remove",
		"file", "save", "persist", "disconnect", "unlink", "folder", "directory", "reload", "re-read",
		"refresh", "status", "folder sync", "writable", "preview", "state", "rename", "move", "open",
		"show", "view", "download", "export", "undo", "redo", "hero", "headline", "title", "subtitle",
		"feature", "card", "section", "replace", "change", "edit", "update the title", "create", "new",
		"landing page", "emerald", "green", "amber", "orange", "rose", "pink", "violet", "purple",
		"readme", "index", "style", "styles", "app", "note", "notes",
		"초기화", "처음부터 다시", "기본 예제", "작업공간", "프로젝트", "상태", "삭제", "지워", "파일",
		"저장", "저장 가능", "폴더에 반영", "파일시스템", "연결 해제", "연결을 해제", "폴더 해제", "폴더",
		"디렉터리", "다시 읽", "새로고침", "재로드", "폴더 연결", "미리보기", "이름 변경", "파일 이름",
		"열어", "보여", "파일을 선택", "다운로드", "내려받", "받아 줘", "실행 취소", "되돌리기", "재실행",
		"다시 실행", "제목", "부제목", "히어로", "기능", "카드", "섹션", "바꿔", "변경", "수정", "교체",
		"갱신", "생성", "만들", "새 파일", "랜딩 페이지", "보라",
		"x", "-", "_", " ", "\t", "\n", "é", "\xff", "k", "s", "/", ".md"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range allKeywords() {
		if k.needles == nil {
			t.Errorf("%s: no prefilter", k.re)
		}
	}
	for i := 0; i < 4000; i++ {
		var b strings.Builder
		for n := rng.IntN(6); n >= 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		text := strings.ToLower(b.String())
		for _, k := range allKeywords() {
			if got, want := k.in(text), k.re.MatchString(text); got != want {
				t.Fatalf("%s on %q: prefiltered %v, regexp %v", k.re, text, got, want)
			}
		}
	}
}
