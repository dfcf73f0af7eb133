package transfer

import "sort"

// idRuns maps old ids to new ids as runs of consecutive ids: an import of messages that
// come in ascending old ids and get ascending new ids (the common case: an export without
// gaps into an empty store gives one run) holds a few runs whatever the number of
// messages, where a map would hold every id. Ids out of order are inserted in place; gaps
// start new runs, so the worst case is one run per id.
type idRuns struct {
	runs []idRun // by ascending old
	n    int64
}

// idRun maps old, old+1, ..., old+n-1 to new, new+1, ..., new+n-1.
type idRun struct{ old, new, n int64 }

// find is the index of the run holding old, or -1, and the index where a run starting at old
// would go.
func (r *idRuns) find(old int64) (int, int) {
	i := sort.Search(len(r.runs), func(i int) bool { return r.runs[i].old > old })
	if i > 0 && old < r.runs[i-1].old+r.runs[i-1].n {
		return i - 1, i
	}
	return -1, i
}

// get is old's new id.
func (r *idRuns) get(old int64) (int64, bool) {
	i, _ := r.find(old)
	if i < 0 {
		return 0, false
	}
	run := r.runs[i]
	return run.new + old - run.old, true
}

// has reports whether old is mapped.
func (r *idRuns) has(old int64) bool {
	i, _ := r.find(old)
	return i >= 0
}

// add maps old to new; false when old is mapped already.
func (r *idRuns) add(old, new int64) bool {
	i, at := r.find(old)
	if i >= 0 {
		return false
	}
	r.n++
	if at > 0 {
		if p := &r.runs[at-1]; p.old+p.n == old && p.new+p.n == new {
			p.n++
			return true
		}
	}
	r.runs = append(r.runs, idRun{})
	copy(r.runs[at+1:], r.runs[at:])
	r.runs[at] = idRun{old: old, new: new, n: 1}
	return true
}

// len is the number of mapped ids.
func (r *idRuns) len() int64 { return r.n }
