package gen

import (
	"fmt"
	"math"
	"strings"
)

// unifiedDiffLimit returns a unified diff (3 lines of context) turning a
// into b, or "" when they are equal, printing at most maxLines lines of
// hunks (0: no limit), then one line saying how many more there are. The
// line alignment is Myers' algorithm in linear space (the middle-snake
// divide and conquer), so memory grows with the number of lines, never
// with their product; a pathologically different pair of inputs gets a
// correct but not necessarily minimal diff after a bounded amount of work.
func unifiedDiffLimit(nameA, nameB, a, b string, maxLines int) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffOps(x, y)
	const ctx = 3
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	printed, hidden := 0, 0
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(k-ctx, 0)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		if maxLines > 0 && printed+end-start+1 > maxLines {
			for _, o := range ops[k:] {
				if o.kind != ' ' {
					hidden++
				}
			}
			break
		}
		aStart, bStart, aLen, bLen := ops[start].ai, ops[start].bi, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		printed++
		for _, o := range ops[start:end] {
			var text string
			if o.kind == '+' {
				text = y[o.bi]
			} else {
				text = x[o.ai]
			}
			sb.WriteByte(o.kind)
			sb.WriteString(text)
			if !strings.HasSuffix(text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
			printed++
		}
		k = end
	}
	if hidden > 0 {
		fmt.Fprintf(&sb, "... %d more changed lines not shown\n", hidden)
	}
	return sb.String()
}

// diffOp is one line of an edit script: kept (' '), deleted ('-') or
// inserted ('+'), with its line index in a and b (for '+' ai is the
// position in a it is inserted at, for '-' bi likewise).
type diffOp struct {
	kind   byte
	ai, bi int
}

// diffOps aligns x and y and returns the edit script, deletions before
// insertions within a change.
func diffOps(x, y []string) []diffOp {
	ids := map[string]int{}
	intern := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	d := &myers{a: intern(x), b: intern(y)}
	d.delA = make([]bool, len(x))
	d.insB = make([]bool, len(y))
	n := len(x) + len(y) + 3
	d.fd, d.bd = make([]int, n), make([]int, n)
	d.off = len(y) + 1
	d.compare(0, len(x), 0, len(y))
	ops := make([]diffOp, 0, max(len(x), len(y)))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && d.delA[i]:
			ops = append(ops, diffOp{'-', i, j})
			i++
		case j < len(y) && d.insB[j]:
			ops = append(ops, diffOp{'+', i, j})
			j++
		default:
			ops = append(ops, diffOp{' ', i, j})
			i++
			j++
		}
	}
	return ops
}

// myers is Myers' O(ND) difference algorithm with the linear-space
// refinement, after GNU diff's compareseq and diag: the middle snake of
// each box splits it in two, recursively. fd and bd hold the furthest
// forward and backward reaching x of each diagonal k = x - y, at k+off.
type myers struct {
	a, b       []int
	delA, insB []bool
	fd, bd     []int
	off        int
}

// maxCost bounds the edit distance searched for one middle snake; beyond
// it the box is split at the furthest point reached, as GNU diff does.
const maxCost = 1024

func (d *myers) compare(xoff, xlim, yoff, ylim int) {
	for xoff < xlim && yoff < ylim && d.a[xoff] == d.b[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && d.a[xlim-1] == d.b[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for j := yoff; j < ylim; j++ {
			d.insB[j] = true
		}
	case yoff == ylim:
		for i := xoff; i < xlim; i++ {
			d.delA[i] = true
		}
	default:
		xmid, ymid := d.split(xoff, xlim, yoff, ylim)
		d.compare(xoff, xmid, yoff, ymid)
		d.compare(xmid, xlim, ymid, ylim)
	}
}

// split returns a point on an optimal (or, past maxCost, a good) path
// through the box, strictly inside it.
func (d *myers) split(xoff, xlim, yoff, ylim int) (int, int) {
	a, b, fd, bd, off := d.a, d.b, d.fd, d.bd, d.off
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[fmid+off] = xoff
	bd[bmid+off] = xlim
	for c := 1; ; c++ {
		if fmin > dmin {
			fmin--
			fd[fmin-1+off] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+off] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			tlo, thi := fd[k-1+off], fd[k+1+off]
			x := thi
			if tlo >= thi {
				x = tlo + 1
			}
			y := x - k
			for x < xlim && y < ylim && a[x] == b[y] {
				x++
				y++
			}
			fd[k+off] = x
			if odd && bmin <= k && k <= bmax && bd[k+off] <= x {
				return x, y
			}
		}
		if bmin > dmin {
			bmin--
			bd[bmin-1+off] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+off] = math.MaxInt
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			tlo, thi := bd[k-1+off], bd[k+1+off]
			x := thi - 1
			if tlo < thi {
				x = tlo
			}
			y := x - k
			for x > xoff && y > yoff && a[x-1] == b[y-1] {
				x--
				y--
			}
			bd[k+off] = x
			if !odd && fmin <= k && k <= fmax && x <= fd[k+off] {
				return x, y
			}
		}
		if c < maxCost {
			continue
		}
		// Too expensive: take the furthest point either search reached.
		fxy, fx := -1, 0
		for k := fmax; k >= fmin; k -= 2 {
			x := min(fd[k+off], xlim)
			y := x - k
			if ylim < y {
				x, y = ylim+k, ylim
			}
			if fxy < x+y {
				fxy, fx = x+y, x
			}
		}
		bxy, bx := math.MaxInt, 0
		for k := bmax; k >= bmin; k -= 2 {
			x := max(xoff, bd[k+off])
			y := x - k
			if y < yoff {
				x, y = yoff+k, yoff
			}
			if x+y < bxy {
				bxy, bx = x+y, x
			}
		}
		if (xlim+ylim)-bxy < fxy-(xoff+yoff) {
			return fx, fxy - fx
		}
		return bx, bxy - bx
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
