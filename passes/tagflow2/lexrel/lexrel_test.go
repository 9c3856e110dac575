package lexrel

import (
	"testing"
)

// The operations are checked against concrete tuples: for every pair (and
// triple) of tuples over a small range of integers, the vector of the
// concrete pair must be in the abstract result (soundness), and every
// vector of the result must be realised by some concrete tuples
// (exactness, where the operation claims it).

const lo, hi = 0, 4 // concrete component values, enough to realise every composition

func tuples(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, t := range tuples(k - 1) {
		for x := lo; x <= hi; x++ {
			out = append(out, append(append([]int(nil), t...), x))
		}
	}
	return out
}

func vecOf(a, b []int) Set {
	rels := make([]Rel, len(a))
	for i := range a {
		switch {
		case a[i] < b[i]:
			rels[i] = LT
		case a[i] == b[i]:
			rels[i] = EQ
		default:
			rels[i] = GT
		}
	}
	return Of(rels...)
}

func lexOf(a, b []int) Rel {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return LT
			}
			return GT
		}
	}
	return EQ
}

func TestTopEmpty(t *testing.T) {
	for k := 0; k <= MaxK; k++ {
		if got := Top(k).Len(); got != pow3[k] {
			t.Errorf("Top(%d).Len() = %d, want %d", k, got, pow3[k])
		}
		if !Empty(k).IsEmpty() || Top(k).IsEmpty() {
			t.Errorf("k=%d: Empty/Top emptiness wrong", k)
		}
	}
	if got := Of(LT, Any).String(); got != "{<< <= <>}" {
		t.Errorf("Of(LT, Any) = %s", got)
	}
}

func TestLexAndRestrict(t *testing.T) {
	for k := 1; k <= 3; k++ {
		for _, a := range tuples(k) {
			for _, b := range tuples(k) {
				v := vecOf(a, b)
				if got, want := v.Lex(), lexOf(a, b); got != want {
					t.Fatalf("Lex(%v,%v) = %v, want %v", a, b, got, want)
				}
				for i := range k {
					if v.Component(i) != vecOf(a[i:i+1], b[i:i+1]).Component(0) {
						t.Fatalf("Component")
					}
				}
			}
		}
	}
	// m.B < b || (m.B == b && m.S < s) is exactly lexicographic <.
	s := Top(2).Restrict(0, LT).Union(Top(2).Restrict(0, EQ).Restrict(1, LT))
	if !s.Equal(Top(2).RestrictLex(LT)) || s.Lex() != LT {
		t.Errorf("filter %v is not lexicographic <", s)
	}
	// Its complement passes exactly the messages of at least the tag.
	rest := Top(2).RestrictLex(GE)
	if rest.Union(s) != Top(2) || !rest.Intersect(s).IsEmpty() {
		t.Errorf("complement wrong: %v", rest)
	}
}

func TestInverse(t *testing.T) {
	for _, a := range tuples(2) {
		for _, b := range tuples(2) {
			if !vecOf(a, b).Inverse().Equal(vecOf(b, a)) {
				t.Fatalf("Inverse(%v,%v)", a, b)
			}
		}
	}
	if Top(3).Inverse() != Top(3) || Rel(LE).Inverse() != GE || Rel(NE).Inverse() != NE {
		t.Error("Inverse of top or relations")
	}
}

// TestComposeExact checks Compose on single vectors against all concrete
// triples: sound and exact.
func TestComposeExact(t *testing.T) {
	for k := 1; k <= 2; k++ {
		real := make(map[[2]Set]Set)
		ts := tuples(k)
		for _, a := range ts {
			for _, b := range ts {
				for _, c := range ts {
					key := [2]Set{vecOf(a, b), vecOf(b, c)}
					got, ok := real[key]
					if !ok {
						got = Empty(k)
					}
					real[key] = got.Union(vecOf(a, c))
				}
			}
		}
		for key, want := range real {
			if got := key[0].Compose(key[1]); !got.Equal(want) {
				t.Errorf("k=%d: %v ∘ %v = %v, want %v", k, key[0], key[1], got, want)
			}
		}
	}
	// Sets compose as the union of their vectors' compositions.
	s, u := Of(LT, Any), Of(EQ, GT)
	if got := s.Compose(u); !got.Equal(Of(LT, Any)) {
		t.Errorf("compose of sets = %v", got)
	}
}

func TestIncrementAssign(t *testing.T) {
	for k := 1; k <= 2; k++ {
		for i := range k {
			real := make(map[Set]Set)
			for _, a := range tuples(k) {
				for _, b := range tuples(k) {
					a2 := append([]int(nil), a...)
					a2[i]++
					v := vecOf(a, b)
					got, ok := real[v]
					if !ok {
						got = Empty(k)
					}
					if a[i] < hi { // a2 stays in range where all relations are realisable
						real[v] = got.Union(vecOf(a2, b))
					}
				}
			}
			for v, want := range real {
				if got := v.Increment(i); !got.Equal(want) {
					t.Errorf("k=%d i=%d: Increment(%v) = %v, want %v", k, i, v, got, want)
				}
			}
		}
	}
	// (b, s) after b++ from "equal to the last communication point":
	// strictly later, whatever happens to s afterwards.
	s := Of(EQ, EQ).Increment(0).Assign(1, Any)
	if s.Lex() != GT {
		t.Errorf("b++ then s := anything: lex %v, want >", s.Lex())
	}
	if got := Of(GT, EQ).Decrement(0); !got.Equal(Of(GE, EQ)) {
		t.Errorf("Decrement = %v", got)
	}
}

func BenchmarkComposeTop4(b *testing.B) {
	s, t := Top(4), Top(4)
	for b.Loop() {
		s.Compose(t)
	}
}

func TestMinus(t *testing.T) {
	for k := 1; k <= 3; k++ {
		top := Top(k)
		for i := range k {
			lt := top.Restrict(i, LT)
			rest := top.Minus(lt)
			if !rest.Intersect(lt).IsEmpty() || rest.Union(lt) != top {
				t.Errorf("k=%d i=%d: Top minus the vectors with < at i is %s", k, i, rest)
			}
			if got, want := rest, top.Restrict(i, GE); got != want {
				t.Errorf("k=%d i=%d: got %s, want %s", k, i, got, want)
			}
		}
	}
}

// TestComposeOn checks ComposeOn against concrete tuples: for a, b, c of
// k components, the jump that sets b's components in mask to a's gives b'
// with a relation to c that ComposeOn(rel(a,b), rel(b,c)) must contain.
func TestComposeOn(t *testing.T) {
	for k := 1; k <= 2; k++ {
		for mask := uint(1); mask < 1<<k; mask++ {
			for _, a := range tuples(k) {
				for _, b := range tuples(k) {
					for _, c := range tuples(k) {
						jumped := append([]int(nil), b...)
						for i := range k {
							if mask&(1<<i) != 0 {
								jumped[i] = a[i]
							}
						}
						got := vecOf(a, b).ComposeOn(vecOf(b, c), mask, false)
						if want := vecOf(jumped, c); !want.Subset(got) {
							t.Fatalf("k=%d mask=%b a=%v b=%v c=%v: %s not in %s", k, mask, a, b, c, want, got)
						}
						// The other terms: their relation to the jumped tuple.
						got = vecOf(c, b).ComposeOn(vecOf(a, b).Inverse(), mask, true)
						if want := vecOf(c, jumped); !want.Subset(got) {
							t.Fatalf("k=%d mask=%b (terms) a=%v b=%v c=%v: %s not in %s", k, mask, a, b, c, want, got)
						}
					}
				}
			}
		}
	}
}
