package conversations

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// TestDecideFlagsSparse holds decideFlags, which asks about its candidates only, to
// decideEveryFlag, which asks about each recipient: the same flagged rows at the same
// positions, for random recipients (a channel's ascending subscribers, with the sender
// appended when not one of them, or in no order), readers, muters, mentioned users and
// groups, wildcards and alerted users.
func TestDecideFlagsSparse(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(42, 7))
	some := func(n, of int) []users.ID {
		var out []users.ID
		for range rng.IntN(n + 1) {
			out = append(out, users.ID(1+rng.IntN(of)))
		}
		return out
	}
	sparse := 0
	for i := range 3000 {
		const of = 60
		var recipients []users.ID
		for u := users.ID(1); u <= of; u++ {
			if rng.IntN(3) > 0 {
				recipients = append(recipients, u)
			}
		}
		sender := users.ID(1 + rng.IntN(of+5))
		if !slices.Contains(recipients, sender) && rng.IntN(2) == 0 {
			recipients = append(recipients, sender)
		}
		if rng.IntN(10) == 0 {
			rng.Shuffle(len(recipients), func(i, j int) { recipients[i], recipients[j] = recipients[j], recipients[i] })
		}
		groups := map[users.GroupID][]users.ID{}
		for g := range users.GroupID(3) {
			members := some(8, of+5)
			slices.Sort(members)
			groups[g] = slices.Compact(members)
		}
		x := flagFacts{
			sender: sender, read: ReadBy(some(2, of+5)...), mutedBy: some(3, of+5),
			isMember: func(g users.GroupID, u users.ID) bool { return slices.Contains(groups[g], u) },
			members:  func(g users.GroupID) []users.ID { return groups[g] },
		}
		for _, u := range some(3, of+5) {
			x.mentions.UserIDs = append(x.mentions.UserIDs, int64(u))
		}
		for range rng.IntN(3) {
			x.mentions.GroupIDs = append(x.mentions.GroupIDs, int64(rng.IntN(4))) // group 3 is empty
		}
		x.mentions.StreamWildcard, x.mentions.TopicWildcard = rng.IntN(8) == 0, rng.IntN(8) == 0
		if alerted := some(3, of+5); len(alerted) > 0 {
			x.alerted = map[users.ID]bool{}
			for _, u := range alerted {
				x.alerted[u] = true
			}
		}
		index := newRecipientIndex(recipients)
		got, want := decideFlags(index, x), decideEveryFlag(index, x)
		if !x.mentions.StreamWildcard && !x.mentions.TopicWildcard && index.sortedHead {
			sparse++
		}
		if diff := cmp.Diff(want.flagged, got.flagged, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("case %d: flagged rows (-every +sparse):\n%s", i, diff)
		}
		if diff := cmp.Diff(want.at, got.at, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("case %d: positions (-every +sparse):\n%s", i, diff)
		}
		for j, at := range got.at {
			if recipients[at] != got.flagged[j].UserID {
				t.Fatalf("case %d: flagged row %v at position %d of %v", i, got.flagged[j], at, recipients)
			}
		}
	}
	if sparse < 1000 {
		t.Errorf("only %d cases took the sparse path", sparse)
	}
}

// TestDeliveryGroupsShareRecipients: the recipients without flags of a message nobody has
// flags on are the recipients' own list, not a copy; with flags, they are a new list without
// the flagged ones, and the recipients' list is left as it was.
func TestDeliveryGroupsShareRecipients(t *testing.T) {
	t.Parallel()
	recipients := []users.ID{2, 4, 6, 8}
	_, groups := testDelivery(recipients, nil).groups()
	if len(groups) != 1 || &groups[0][0] != (*int64)(&recipients[0]) {
		t.Errorf("groups of a message without flags: %v, not the recipients' list", groups)
	}
	order, groups := testDelivery(recipients, []messages.UserMessage{{UserID: 4, Flags: messages.FlagRead}}).groups()
	if diff := cmp.Diff([][]int64{{2, 6, 8}, {4}}, groups); diff != "" || !slices.Equal(order, []messages.Flags{0, messages.FlagRead}) {
		t.Errorf("groups %v %v (-want +got):\n%s", order, groups, diff)
	}
	if !slices.Equal(recipients, []users.ID{2, 4, 6, 8}) {
		t.Errorf("recipients changed to %v", recipients)
	}
}

// TestMergeAscending merges a channel's recipients with the guests: ascending, without repeats.
func TestMergeAscending(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b []users.ID }{
		{nil, nil}, {[]users.ID{1, 3}, nil}, {nil, []users.ID{2}},
		{[]users.ID{1, 3, 5}, []users.ID{2, 3, 9}}, {[]users.ID{4}, []users.ID{1, 2, 3}},
	} {
		var want []int64
		for _, u := range slices.Concat(tc.a, tc.b) {
			want = append(want, int64(u))
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if got := mergeAscending(tc.a, tc.b); !slices.Equal(got, want) {
			t.Errorf("mergeAscending(%v, %v) = %v, want %v", tc.a, tc.b, got, want)
		}
	}
}

// TestExceptOf holds the exceptions of a public channel's message for the public queues to
// the union of its recipients and the guests, sorted, without repeats: for recipients
// ascending (shared when there are no guests), ascending but for the sender last, and in no
// order.
func TestExceptOf(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 2000 {
		var recipients, guests []users.ID
		for u := users.ID(1); u <= 30; u++ {
			switch rng.IntN(4) {
			case 0:
				recipients = append(recipients, u)
			case 1:
				guests = append(guests, u)
			case 2:
				recipients, guests = append(recipients, u), append(guests, u)
			}
		}
		if rng.IntN(2) == 0 {
			guests = nil
		}
		switch rng.IntN(3) {
		case 0:
			recipients = append(recipients, users.ID(rng.IntN(35))) // the sender last
		case 1:
			rng.Shuffle(len(recipients), func(i, j int) { recipients[i], recipients[j] = recipients[j], recipients[i] })
		}
		var want []int64
		for _, u := range slices.Concat(recipients, guests) {
			want = append(want, int64(u))
		}
		slices.Sort(want)
		want = slices.Compact(want)
		index := newRecipientIndex(recipients)
		got := exceptOf(index, guests)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: exceptOf(%v, %v) = %v, want %v", i, recipients, guests, got, want)
		}
		if index.ascending() && len(guests) == 0 && len(got) > 0 && &got[0] != (*int64)(&recipients[0]) {
			t.Fatalf("case %d: ascending recipients without guests were copied", i)
		}
	}
}
