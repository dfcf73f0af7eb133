package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func (f *fixture) mustViews(t *testing.T, name string) []chat.NavigationViewRecord {
	t.Helper()
	res, err := f.svc.GetNavigationViews(t.Context(), f.actor(name), chat.GetNavigationViewsParams{})
	if err != nil {
		t.Fatalf("GetNavigationViews: %v", err)
	}
	return res.NavigationViews
}

func (f *fixture) mustAddView(t *testing.T, name string, p chat.AddNavigationViewParams) {
	t.Helper()
	if _, err := f.svc.AddNavigationView(t.Context(), f.actor(name), p); err != nil {
		t.Fatalf("AddNavigationView: %v", err)
	}
}

func TestNavigationViewsLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "member")
	other := f.register(t, "admin")

	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "inbox", IsPinned: false})
	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: " narrow/is/alerted ", IsPinned: true, Name: ptr(" Alert Words ")})
	want := []chat.NavigationViewRecord{
		{Fragment: "inbox", IsPinned: false},
		{Fragment: "narrow/is/alerted", IsPinned: true, Name: ptr("Alert Words")},
	}
	if diff := cmp.Diff(want, f.mustViews(t, "member")); diff != "" {
		t.Fatalf("GetNavigationViews (-want +got):\n%s", diff)
	}
	if _, err := f.svc.EditNavigationView(ctx, f.actor("member"), chat.EditNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: ptr(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.EditNavigationView(ctx, f.actor("member"), chat.EditNavigationViewParams{Fragment: "narrow/is/alerted", Name: ptr("Watched")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RemoveNavigationView(ctx, f.actor("member"), chat.RemoveNavigationViewParams{Fragment: "inbox"}); err != nil {
		t.Fatal(err)
	}
	wantEvents := []string{
		`{"type":"navigation_view","op":"add","navigation_view":{"fragment":"inbox","is_pinned":false},"id":0}`,
		`{"type":"navigation_view","op":"add","navigation_view":{"fragment":"narrow/is/alerted","is_pinned":true,"name":"Alert Words"},"id":1}`,
		`{"type":"navigation_view","op":"update","fragment":"narrow/is/alerted","data":{"is_pinned":false},"id":2}`,
		`{"type":"navigation_view","op":"update","fragment":"narrow/is/alerted","data":{"name":"Watched"},"id":3}`,
		`{"type":"navigation_view","op":"remove","fragment":"inbox","id":4}`,
	}
	if diff := cmp.Diff(wantEvents, wireEvents(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "admin", other, -1, true); len(evs) != 0 {
		t.Errorf("another user received navigation_view events: %v", wireEvents(t, evs))
	}
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"navigation_views"}})
	if err != nil {
		t.Fatal(err)
	}
	want = []chat.NavigationViewRecord{{Fragment: "narrow/is/alerted", IsPinned: false, Name: ptr("Watched")}}
	if res.DraftsState == nil || res.DraftsState.NavigationViews == nil {
		t.Fatal("register lacks navigation_views")
	}
	if diff := cmp.Diff(want, *res.DraftsState.NavigationViews); diff != "" {
		t.Errorf("register navigation_views (-want +got):\n%s", diff)
	}
}

func TestNavigationViewsRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: true, Name: ptr("Alerts")})
	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/dm", IsPinned: true, Name: ptr("DMs")})
	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "recent", IsPinned: true})
	q := f.register(t, "member")
	before := f.mustViews(t, "member")
	add := func(p chat.AddNavigationViewParams) func() error {
		return func() error { _, err := f.svc.AddNavigationView(ctx, f.actor("member"), p); return err }
	}
	edit := func(p chat.EditNavigationViewParams) func() error {
		return func() error { _, err := f.svc.EditNavigationView(ctx, f.actor("member"), p); return err }
	}
	tests := []struct {
		name   string
		call   func() error
		code   chat.Code
		status int
		msg    string
	}{
		{"blank fragment", add(chat.AddNavigationViewParams{Fragment: "  "}), chat.CodeBadRequest, 400, "fragment cannot be blank"},
		{"built-in with a name", add(chat.AddNavigationViewParams{Fragment: "inbox", Name: ptr("Mine")}), chat.CodeBadRequest, 400, "Built-in views cannot have a custom name."},
		{"custom without a name", add(chat.AddNavigationViewParams{Fragment: "narrow/is/x"}), chat.CodeBadRequest, 400, "Custom views must have a valid name."},
		{"custom with a blank name", add(chat.AddNavigationViewParams{Fragment: "narrow/is/x", Name: ptr(" ")}), chat.CodeBadRequest, 400, "name cannot be blank"},
		{"fragment taken", add(chat.AddNavigationViewParams{Fragment: "narrow/is/alerted", Name: ptr("Other")}), chat.CodeBadRequest, 400, "Navigation view already exists."},
		{"built-in fragment taken", add(chat.AddNavigationViewParams{Fragment: "recent"}), chat.CodeBadRequest, 400, "Navigation view already exists."},
		{"name taken", add(chat.AddNavigationViewParams{Fragment: "narrow/is/y", Name: ptr("Alerts")}), chat.CodeBadRequest, 400, "Navigation view already exists."},
		{"rename onto a taken name", edit(chat.EditNavigationViewParams{Fragment: "narrow/is/dm", Name: ptr("Alerts")}), chat.CodeBadRequest, 400, "Navigation view already exists."},
		{"name a built-in view", edit(chat.EditNavigationViewParams{Fragment: "recent", Name: ptr("R")}), chat.CodeBadRequest, 400, "Built-in views cannot have a custom name."},
		{"edit unknown", edit(chat.EditNavigationViewParams{Fragment: "narrow/none", IsPinned: ptr(true)}), chat.CodeNotFound, 404, "Navigation view does not exist."},
		{"remove unknown", func() error {
			_, err := f.svc.RemoveNavigationView(ctx, f.actor("member"), chat.RemoveNavigationViewParams{Fragment: "inbox"})
			return err
		}, chat.CodeNotFound, 404, "Navigation view does not exist."},
		{"another user's view", func() error {
			_, err := f.svc.RemoveNavigationView(ctx, f.actor("admin"), chat.RemoveNavigationViewParams{Fragment: "recent"})
			return err
		}, chat.CodeNotFound, 404, "Navigation view does not exist."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, tt.call(), tt.code, tt.status, tt.msg)
			if diff := cmp.Diff(before, f.mustViews(t, "member")); diff != "" {
				t.Errorf("views changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
				t.Errorf("events after a refusal: %v", wireEvents(t, evs))
			}
		})
	}
}
