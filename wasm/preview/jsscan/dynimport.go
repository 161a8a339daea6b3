package jsscan

import "sort"

// DynamicImport is one `import(…)` call whose first argument is not a lone string literal
// (those are module references of FindRefs): ArgStart and ArgEnd delimit the first argument
// expression (byte offsets; ArgStart == ArgEnd for an empty argument list).
type DynamicImport struct {
	ArgStart, ArgEnd int
}

// FindDynamicImports returns the `import(expr)` calls of src whose argument is computed, in
// source order; only tokens the lexer attributes to code count (see FindRefs). The argument
// runs to the first ',' or the closing ')' outside brackets; an unterminated call is not
// returned. Time and memory are linear in len(src).
func FindDynamicImports(src string) []DynamicImport {
	var out []DynamicImport
	lx := NewLexer(src)
	var prev Token
	type open struct {
		argStart, depth int
		tokens          int
		lit             bool
	}
	var stack []open // open import( calls
	depth := 0
	pendingImport := false
	for {
		t, ok := lx.Next()
		if !ok {
			// Nested calls close inner first: order by argument start.
			sort.Slice(out, func(i, j int) bool { return out[i].ArgStart < out[j].ArgStart })
			return out
		}
		if t.Kind == Comment {
			continue
		}
		text := src[t.Start:t.End]
		if pendingImport {
			pendingImport = false
			if t.Kind == Punct && text == "(" {
				depth++
				stack = append(stack, open{argStart: t.End, depth: depth})
				prev = t
				continue
			}
		}
		if n := len(stack); n > 0 && depth == stack[n-1].depth {
			top := &stack[n-1]
			if t.Kind == Punct && (text == ")" || text == ",") {
				if !(top.tokens == 1 && top.lit) && top.tokens > 0 {
					out = append(out, DynamicImport{ArgStart: top.argStart, ArgEnd: t.Start})
				}
				stack = stack[:n-1]
				if text == ")" {
					depth--
				}
				prev = t
				continue
			}
			top.tokens++
			top.lit = top.tokens == 1 && isStringLit(src, t)
		}
		switch {
		case t.Kind == Ident && text == "import" && !isMemberDot(src, prev):
			pendingImport = true
		case t.Kind == Punct && (text == "(" || text == "[" || text == "{"):
			depth++
		case t.Kind == Punct && (text == ")" || text == "]" || text == "}"):
			depth--
			for len(stack) > 0 && stack[len(stack)-1].depth > depth {
				stack = stack[:len(stack)-1]
			}
		}
		prev = t
	}
}
