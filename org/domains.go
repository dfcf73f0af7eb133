package org

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
)

// RealmDomainRecord is one of the organization's email domains, as the API shows it.
type RealmDomainRecord struct {
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}

// RealmDomainsEvent is a realm_domains event: add and change carry the domain, remove its name.
type RealmDomainsEvent struct {
	Type        string             `json:"type"`
	Op          string             `json:"op"`
	RealmDomain *RealmDomainRecord `json:"realm_domain,omitempty"`
	Domain      string             `json:"domain,omitempty"`
}

func DomainRecords(r realms.Realm) []RealmDomainRecord {
	out := make([]RealmDomainRecord, 0, len(r.Domains))
	for _, d := range r.Domains {
		out = append(out, RealmDomainRecord{Domain: d.Domain, AllowSubdomains: d.AllowSubdomains})
	}
	return out
}

// GetRealmDomainsResult is the answer of GET /realm/domains.
type GetRealmDomainsResult struct {
	Domains []RealmDomainRecord `json:"domains"`
}

// GetRealmDomains lists the organization's email domains (any user).
func (s *Service) GetRealmDomains(ctx context.Context, actor engine.Actor) (GetRealmDomainsResult, error) {
	var res GetRealmDomainsResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		realm, err := tx.Realm().Get()
		res.Domains = DomainRecords(realm)
		return err
	})
	return res, err
}

// CreateRealmDomainParams are the parameters of POST /realm/domains.
type CreateRealmDomainParams struct {
	Domain          string
	AllowSubdomains bool
}

// CreateRealmDomainResult is Zulip's answer: new_domain is [id, domain].
type CreateRealmDomainResult struct {
	NewDomain []any `json:"new_domain"`
}

// realmDomainChange runs one change of the domains list: owners only; fn changes the
// organization and returns the event (nil: nothing changed).
func (s *Service) realmDomainChange(ctx context.Context, actor engine.Actor, fn func(r *realms.Realm) (*RealmDomainsEvent, error)) error {
	return s.eng.Mutate(ctx, actor, engine.Owners, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		e, err := fn(&realm)
		if err != nil || e == nil {
			return err
		}
		to, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.Emit(*e, to)
		if len(realm.Domains) == 0 && realm.Bool("emails_restricted_to_domains") {
			realm.SetValue("emails_restricted_to_domains", false)
			ev.Emit(RealmUpdateEvent{Type: "realm", Op: "update", Property: "emails_restricted_to_domains", Value: false}, to)
		}
		return tx.Realm().Put(realm)
	})
}

func errNoDomain(domain string) *engine.Error {
	return engine.BadRequest("No entry found for domain %s.", domain)
}

// CreateRealmDomain adds an email domain (owners only) and sends realm_domains add.
func (s *Service) CreateRealmDomain(ctx context.Context, actor engine.Actor, p CreateRealmDomainParams) (CreateRealmDomainResult, error) {
	d, err := realms.NormalizeDomain(p.Domain)
	var ce *realms.CheckError
	if errors.As(err, &ce) {
		return CreateRealmDomainResult{}, engine.BadRequest("Invalid domain: %s", ce.Msg)
	}
	var res CreateRealmDomainResult
	err = s.realmDomainChange(ctx, actor, func(r *realms.Realm) (*RealmDomainsEvent, error) {
		id := int64(1)
		for _, x := range r.Domains {
			if x.Domain == d {
				return nil, engine.BadRequest("The domain %s is already a part of your organization.", d)
			}
			id = max(id, x.ID+1)
		}
		r.Domains = append(r.Domains, realms.Domain{ID: id, Domain: d, AllowSubdomains: p.AllowSubdomains})
		slices.SortFunc(r.Domains, func(a, b realms.Domain) int { return strings.Compare(a.Domain, b.Domain) })
		res.NewDomain = []any{id, d}
		return &RealmDomainsEvent{Type: "realm_domains", Op: "add", RealmDomain: &RealmDomainRecord{Domain: d, AllowSubdomains: p.AllowSubdomains}}, nil
	})
	if err != nil {
		return CreateRealmDomainResult{}, err
	}
	return res, nil
}

// PatchRealmDomainParams are the parameters of PATCH /realm/domains/{domain}.
type PatchRealmDomainParams struct {
	Domain          string
	AllowSubdomains bool
}

// PatchRealmDomainResult is PatchRealmDomain's answer: nothing beyond success.
type PatchRealmDomainResult struct{}

// PatchRealmDomain changes whether a domain's subdomains are allowed (owners only) and sends
// realm_domains change.
func (s *Service) PatchRealmDomain(ctx context.Context, actor engine.Actor, p PatchRealmDomainParams) (PatchRealmDomainResult, error) {
	return PatchRealmDomainResult{}, s.realmDomainChange(ctx, actor, func(r *realms.Realm) (*RealmDomainsEvent, error) {
		i := slices.IndexFunc(r.Domains, func(x realms.Domain) bool { return x.Domain == p.Domain })
		if i < 0 {
			return nil, errNoDomain(p.Domain)
		}
		if r.Domains[i].AllowSubdomains == p.AllowSubdomains {
			return nil, nil
		}
		r.Domains[i].AllowSubdomains = p.AllowSubdomains
		return &RealmDomainsEvent{Type: "realm_domains", Op: "change", RealmDomain: &RealmDomainRecord{Domain: p.Domain, AllowSubdomains: p.AllowSubdomains}}, nil
	})
}

// DeleteRealmDomainParams are the parameters of DELETE /realm/domains/{domain}.
type DeleteRealmDomainParams struct {
	Domain string
}

// DeleteRealmDomainResult is DeleteRealmDomain's answer: nothing beyond success.
type DeleteRealmDomainResult struct{}

// DeleteRealmDomain removes a domain (owners only) and sends realm_domains remove; removing
// the last one turns emails_restricted_to_domains off, as Zulip does.
func (s *Service) DeleteRealmDomain(ctx context.Context, actor engine.Actor, p DeleteRealmDomainParams) (DeleteRealmDomainResult, error) {
	return DeleteRealmDomainResult{}, s.realmDomainChange(ctx, actor, func(r *realms.Realm) (*RealmDomainsEvent, error) {
		i := slices.IndexFunc(r.Domains, func(x realms.Domain) bool { return x.Domain == p.Domain })
		if i < 0 {
			return nil, errNoDomain(p.Domain)
		}
		r.Domains = slices.Delete(r.Domains, i, i+1)
		return &RealmDomainsEvent{Type: "realm_domains", Op: "remove", Domain: p.Domain}, nil
	})
}

// RealmUpdateEvent is a realm update event: one organization setting changed.
type RealmUpdateEvent struct {
	Type     string `json:"type"`
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}
