package engine

import (
	"slices"
	"testing"
)

// TestOverlapOrder pins the ordering of overlapping sends: events go out in ticket order
// whatever the order the sends finish in, a ticket given up (a run the store repeated) is
// skipped, a send returns only once its own events are out, and registrations and sends keep
// out of each other's way.
func TestOverlapOrder(t *testing.T) {
	t.Parallel()
	o := newOverlap()
	var got []string
	publish := func(ev *Events) { got = append(got, ev.List[0].Type) }
	ev := func(typ string) *Events { return &Events{List: []Pending{{Type: typ}}} }

	for range 3 {
		o.enterWriter()
	}
	first, second, third := o.take(), o.take(), o.take()
	thirdOut := make(chan struct{})
	go func() {
		o.finish(third, ev("third"), publish, true, true)
		close(thirdOut)
	}()
	o.finish(second, nil, publish, false, true) // given up
	select {
	case <-thirdOut:
		t.Fatal("the third send returned before the first was published")
	default:
	}
	o.finish(first, ev("first"), publish, true, true)
	<-thirdOut
	if want := []string{"first", "third"}; !slices.Equal(got, want) {
		t.Errorf("published %v, want %v", got, want)
	}

	// A registration waits for the send inside; a send waits for the registration.
	o.enterWriter()
	entered := make(chan func())
	go func() { entered <- o.enterRegistration() }()
	o.leave()
	release := <-entered
	wrote := make(chan struct{})
	go func() {
		o.enterWriter()
		close(wrote)
	}()
	release()
	<-wrote
	o.leave()
	if o.writers != 0 || o.regs != 0 || o.regsWait != 0 {
		t.Errorf("left writers=%d regs=%d waiting=%d, want none", o.writers, o.regs, o.regsWait)
	}
}
