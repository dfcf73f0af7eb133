package chat_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// plainChannel is ChannelRecord without its methods: encoding/json writes it by reflection from
// the field tags, the output the hand-written encoder must equal.
type plainChannel chat.ChannelRecord

// reflectJSON encodes a record by reflection from its field tags. A SubscriptionRecord is
// mirrored field by field into a struct made with reflect.StructOf whose embedded channel is a
// plainChannel, so that a field added to either record is part of the comparison.
func reflectJSON(t *testing.T, v any) string {
	t.Helper()
	var mirror any
	switch r := v.(type) {
	case chat.ChannelRecord:
		mirror = plainChannel(r)
	case chat.SubscriptionRecord:
		src := reflect.ValueOf(r)
		fields := make([]reflect.StructField, src.NumField())
		for i := range fields {
			fields[i] = src.Type().Field(i)
			fields[i].Index = nil
			if fields[i].Anonymous {
				fields[i].Name, fields[i].Type = "PlainChannel", reflect.TypeFor[plainChannel]()
			}
		}
		dst := reflect.New(reflect.StructOf(fields)).Elem()
		for i := range fields {
			dst.Field(i).Set(src.Field(i).Convert(fields[i].Type))
		}
		mirror = dst.Interface()
	default:
		t.Fatalf("no mirror for %T", v)
	}
	b, err := json.Marshal(mirror)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fill sets every field of the struct v points at to a random value: pointers nil or set (to
// nil or empty slices too), strings with characters that need escaping, group settings named
// or anonymous.
func fill(r *rand.Rand, v reflect.Value) {
	strs := []string{"", "general", `a "quoted" \ name`, "<b>&amp;</b>", "日本語 🎉\u2028", "bad \xff", "tab\tnew\nline\x01"}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[users.GroupSetting]() {
			var s users.GroupSetting
			switch r.IntN(4) {
			case 0:
				s = users.Named(users.GroupID(1 + r.IntN(50)))
			case 1: // nobody: nil lists
			default:
				for range r.IntN(4) {
					s.Members = append(s.Members, users.ID(1+r.IntN(1000)))
				}
				for range r.IntN(3) {
					s.Subgroups = append(s.Subgroups, users.GroupID(1+r.IntN(50)))
				}
			}
			v.Set(reflect.ValueOf(s))
			return
		}
		for i := range v.NumField() {
			fill(r, v.Field(i))
		}
	case reflect.Pointer:
		if r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem())
		v.Set(p)
	case reflect.Slice:
		switch r.IntN(3) {
		case 0:
			v.SetZero()
		default:
			n := r.IntN(5)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(r, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.String:
		v.SetString(strs[r.IntN(len(strs))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(r.Int64N(1<<40) - 1<<20)
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// TestRecordJSONMatchesReflection holds the hand-written record encoders to encoding/json's
// reflection over the field tags, for records with every field set, unset and null.
func TestRecordJSONMatchesReflection(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(24, 7))
	for i := range 3000 {
		var sub chat.SubscriptionRecord
		if i > 0 {
			fill(r, reflect.ValueOf(&sub).Elem())
		}
		for _, v := range []any{sub.ChannelRecord, sub} {
			got, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if want := reflectJSON(t, v); string(got) != want {
				t.Fatalf("%T:\n got %s\nwant %s", v, got, want)
			}
		}
		subs := []chat.SubscriptionRecord{sub, sub}
		want, _ := json.Marshal(subs)
		if got := chat.AppendSubscriptionsJSON(nil, subs); string(got) != string(want) {
			t.Fatalf("AppendSubscriptionsJSON:\n got %s\nwant %s", got, want)
		}
		chans := []chat.ChannelRecord{sub.ChannelRecord}
		want, _ = json.Marshal(chans)
		if got := chat.AppendChannelsJSON(nil, chans); string(got) != string(want) {
			t.Fatalf("AppendChannelsJSON:\n got %s\nwant %s", got, want)
		}
	}
	for _, l := range [][]chat.SubscriptionRecord{nil, {}} {
		res := chat.GetSubscriptionsResult{Subscriptions: l}
		want, _ := json.Marshal(struct {
			Subscriptions []chat.SubscriptionRecord `json:"subscriptions"`
		}{l})
		if got, err := res.AppendJSON(nil); err != nil || string(got) != string(want) {
			t.Errorf("GetSubscriptionsResult.AppendJSON = %s, %v; want %s", got, err, want)
		}
		want, _ = json.Marshal(l)
		if got := chat.AppendSubscriptionsJSON(nil, l); string(got) != string(want) {
			t.Errorf("AppendSubscriptionsJSON(%#v) = %s, want %s", l, got, want)
		}
	}
	for _, l := range [][]chat.ChannelRecord{nil, {}} {
		want, _ := json.Marshal(l)
		if got := chat.AppendChannelsJSON(nil, l); string(got) != string(want) {
			t.Errorf("AppendChannelsJSON(%#v) = %s, want %s", l, got, want)
		}
	}
}
