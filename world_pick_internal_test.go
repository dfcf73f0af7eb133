package chat

import (
	"slices"
	"testing"

	"github.com/teamchat/chat/channels"
)

func TestPickChannels(t *testing.T) {
	t.Parallel()
	all := []channels.Channel{{ID: 2}, {ID: 3}, {ID: 5}, {ID: 8}, {ID: 13}}
	for _, tc := range []struct {
		name string
		ids  []channels.ID
		want []channels.ID
	}{
		{"none", nil, nil},
		{"every one", []channels.ID{2, 3, 5, 8, 13}, []channels.ID{2, 3, 5, 8, 13}},
		{"some, unknown ones left out", []channels.ID{1, 3, 4, 13, 14}, []channels.ID{3, 13}},
		{"unsorted with duplicates", []channels.ID{13, 2, 13, 8, 2}, []channels.ID{2, 8, 13}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := slices.Clone(tc.ids)
			var got []channels.ID
			for _, c := range pickChannels(all, tc.ids) {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("pickChannels(%v) = %v, want %v", tc.ids, got, tc.want)
			}
			if !slices.Equal(in, tc.ids) {
				t.Errorf("pickChannels changed its ids to %v", tc.ids)
			}
		})
	}
}
