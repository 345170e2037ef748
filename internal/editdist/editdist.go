// Package editdist measures how far apart two names are, for "did you
// mean" suggestions: the one edit distance of the generator and the
// runtime. It uses only the standard library, so the runtime may import
// it.
package editdist

// Distance is the optimal string alignment distance of a and b, in bytes:
// insertions, deletions, substitutions and transpositions of neighbours
// cost 1 ("Chnage" is one edit from "Change"). The table of short strings
// (every struct tag key goes through it) stays on the stack.
func Distance(a, b string) int {
	w := len(b) + 1
	var buf [10 * 10]int
	var d []int
	if n := (len(a) + 1) * w; n <= len(buf) {
		d = buf[:n]
	} else {
		d = make([]int, n)
	}
	for i := 0; i <= len(a); i++ {
		d[i*w] = i
	}
	for j := 0; j <= len(b); j++ {
		d[j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(d[(i-1)*w+j]+1, d[i*w+j-1]+1, d[(i-1)*w+j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, d[(i-2)*w+j-2]+1)
			}
			d[i*w+j] = v
		}
	}
	return d[len(a)*w+len(b)]
}
