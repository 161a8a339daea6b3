package planner

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
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

// phraseRegexp translates phrase syntax to the equivalent regexp, the specification the
// matcher is checked against.
func phraseRegexp(sources []string) *regexp.Regexp {
	var alts []string
	for _, src := range sources {
		var b strings.Builder
		if strings.HasPrefix(src, "<") {
			b.WriteString(`\b`)
			src = src[1:]
		}
		end := ""
		if strings.HasSuffix(src, ">") {
			end = `\b`
			src = src[:len(src)-1]
		}
		for _, r := range src {
			switch r {
			case ' ':
				b.WriteString(`\s+`)
			case '~':
				b.WriteString(`\s*`)
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		b.WriteString(end)
		alts = append(alts, b.String())
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}

func TestKeywordMatchesRegexpSpecification(t *testing.T) {
	words := []string{"reset", "start over", "restore demo", "workspace", "demo", "delete", "remove",
		"file", "save", "persist", "disconnect", "unlink", "folder", "directory", "reload", "re-read",
		"refresh", "status", "folder sync", "writable", "preview", "state", "rename", "move", "open",
		"show", "view", "download", "export", "undo", "redo", "hero", "headline", "title", "subtitle",
		"feature", "card", "section", "replace", "change", "edit", "update the title", "update  title",
		"create", "new", "landing page", "emerald", "green", "amber", "orange", "rose", "pink", "violet",
		"purple", "readme", "index", "style", "styles", "app", "note", "notes",
		"초기화", "처음부터", "다시", "기본", "예제", "작업", "공간", "프로젝트", "상태", "삭제", "지워", "파일",
		"저장", "가능", "폴더에", "반영", "시스템", "연결", "해제", "연결을", "폴더", "디렉터리", "읽",
		"새로", "고침", "재로드", "미리", "보기", "이름", "변경", "바꾸", "바꿔", "열어", "보여", "파일을",
		"선택", "열", "다운로드", "내려", "받", "받아", "줘", "실행", "취소", "되돌리기", "되돌려", "재실행",
		"제목", "부제목", "히어로", "기능", "카드", "섹션", "수정", "교체", "갱신", "생성", "만들", "새",
		"랜딩", "페이지", "보라",
		"x", "-", "_", "9", " ", "  ", "\t", "\n", "\r\n", "é", "\ufffd", "/", ".md", "re"}
	rng := rand.New(rand.NewPCG(1, 2))
	type pair struct {
		k  *keyword
		re *regexp.Regexp
	}
	var pairs []pair
	for _, k := range allKeywords() {
		pairs = append(pairs, pair{k, phraseRegexp(k.sources)})
	}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := rng.IntN(6); n >= 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		text := strings.ToLower(b.String())
		for _, p := range pairs {
			loc := p.re.FindStringIndex(text)
			if got, want := p.k.in(text), loc != nil; got != want {
				t.Fatalf("%q on %q: matcher %v, regexp %s says %v", p.k.sources, text, got, p.re, want)
			}
			if loc != nil {
				if s, e, _ := p.k.find(text, 0); s != loc[0] {
					t.Fatalf("%q on %q: match at %d..%d, regexp at %v", p.k.sources, text, s, e, loc)
				}
			}
		}
	}
}

func TestKeywordRemoveAll(t *testing.T) {
	got := reSaveQuestion.removeAll("폴더에 저장 가능? 저장가능. 저장")
	if got != "폴더에  ?  . 저장" {
		t.Errorf("removeAll = %q", got)
	}
	if got := reSaveQuestion.removeAll("nothing"); got != "nothing" {
		t.Errorf("removeAll without a match = %q", got)
	}
}

func TestNewKeywordRejectsEmptyParts(t *testing.T) {
	for _, bad := range []string{"", "a  b", "a~", "<>", "~a"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newKeyword(%q) did not panic", bad)
				}
			}()
			newKeyword(bad)
		}()
	}
}
