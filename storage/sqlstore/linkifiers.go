package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/linkifiers"
)

// linkifierTx is the linkifiers accessor.
type linkifierTx struct{ t *txn }

const linkifierColumns = "id, pattern, url_template, example_input, reverse_template, alternative_url_templates, ord"

func scanLinkifier(row *sql.Rows) (linkifiers.Linkifier, error) {
	var l linkifiers.Linkifier
	var example, reverse sql.NullString
	var alternatives string
	if err := row.Scan(&l.ID, &l.Pattern, &l.URLTemplate, &example, &reverse, &alternatives, &l.Order); err != nil {
		return l, err
	}
	if example.Valid {
		l.ExampleInput = &example.String
	}
	if reverse.Valid {
		l.ReverseTemplate = &reverse.String
	}
	l.AlternativeURLTemplates = []string{}
	if err := json.Unmarshal([]byte(alternatives), &l.AlternativeURLTemplates); err != nil {
		return l, fmt.Errorf("linkifier %d alternative templates: %w", l.ID, err)
	}
	return l, nil
}

func alternativesText(l linkifiers.Linkifier) string {
	list := l.AlternativeURLTemplates
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list) // cannot fail: strings only
	return string(b)
}

func (a linkifierTx) Get(id linkifiers.ID) (linkifiers.Linkifier, error) {
	list, err := scanAll(a.t, scanLinkifier, "SELECT "+linkifierColumns+" FROM linkifiers WHERE id = ?", id)
	if err != nil {
		return linkifiers.Linkifier{}, err
	}
	if len(list) == 0 {
		return linkifiers.Linkifier{}, notFound("linkifier", id)
	}
	return list[0], nil
}

func (a linkifierTx) List() ([]linkifiers.Linkifier, error) {
	return cachedList(a.t, linkifiersTable, &a.t.cache.linkifiers, linkifiers.Linkifier.Clone, func() ([]linkifiers.Linkifier, error) {
		return scanAll(a.t, scanLinkifier, "SELECT "+linkifierColumns+" FROM linkifiers ORDER BY ord, id")
	})
}

func (a linkifierTx) Create(l linkifiers.Linkifier) (linkifiers.ID, error) {
	if err := a.t.bump(linkifiersTable); err != nil {
		return 0, err
	}
	var id linkifiers.ID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO linkifiers (pattern, url_template, example_input, reverse_template,
			alternative_url_templates, ord)
			VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(ord) + 1, 0) FROM linkifiers)) RETURNING id`,
			[]any{l.Pattern, l.URLTemplate, nullableString(l.ExampleInput), nullableString(l.ReverseTemplate),
				alternativesText(l)}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create linkifier: %w", err)
	}
	return id, nil
}

func (a linkifierTx) Update(l linkifiers.Linkifier) error {
	if err := a.t.bump(linkifiersTable); err != nil {
		return err
	}
	var res sql.Result
	err := a.t.guarded(func() (err error) {
		res, err = a.t.exec(`UPDATE linkifiers SET pattern = ?, url_template = ?, example_input = ?,
			reverse_template = ?, alternative_url_templates = ? WHERE id = ?`,
			l.Pattern, l.URLTemplate, nullableString(l.ExampleInput), nullableString(l.ReverseTemplate),
			alternativesText(l), l.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("update linkifier %d: %w", l.ID, err)
	}
	return mustAffect(res, "linkifier", l.ID)
}

func (a linkifierTx) Delete(id linkifiers.ID) error {
	if err := a.t.bump(linkifiersTable); err != nil {
		return err
	}
	res, err := a.t.exec("DELETE FROM linkifiers WHERE id = ?", id)
	if err != nil {
		return err
	}
	return mustAffect(res, "linkifier", id)
}

// Reorder checks the ids in one query and renumbers them in one statement.
func (a linkifierTx) Reorder(list []linkifiers.ID) error {
	if err := a.t.bump(linkifiersTable); err != nil {
		return err
	}
	if len(list) == 0 {
		return a.t.live()
	}
	distinct := slices.Clone(list)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	var n int
	if err := a.t.get("SELECT COUNT(*) FROM linkifiers WHERE id IN ("+a.t.d.idSet+")", []any{ids(a.t.d, distinct)}, &n); err != nil {
		return err
	}
	if n != len(distinct) {
		return notFound("linkifier in", list)
	}
	var b strings.Builder
	args := make([]any, 0, 2*len(list)+1)
	b.WriteString("UPDATE linkifiers SET ord = CASE id")
	for i, id := range list {
		b.WriteString(" WHEN ? THEN ?")
		args = append(args, id, i)
	}
	b.WriteString(" ELSE ord END WHERE id IN (" + a.t.d.idSet + ")")
	args = append(args, ids(a.t.d, distinct))
	_, err := a.t.exec(b.String(), args...)
	return err
}

// playgroundTx is the code-playgrounds accessor.
type playgroundTx struct{ t *txn }

func scanPlayground(row *sql.Rows) (linkifiers.Playground, error) {
	var p linkifiers.Playground
	err := row.Scan(&p.ID, &p.Name, &p.Language, &p.URLTemplate)
	return p, err
}

func (a playgroundTx) Get(id linkifiers.PlaygroundID) (linkifiers.Playground, error) {
	list, err := scanAll(a.t, scanPlayground, "SELECT id, name, language, url_template FROM playgrounds WHERE id = ?", id)
	if err != nil {
		return linkifiers.Playground{}, err
	}
	if len(list) == 0 {
		return linkifiers.Playground{}, notFound("playground", id)
	}
	return list[0], nil
}

func (a playgroundTx) List() ([]linkifiers.Playground, error) {
	return scanAll(a.t, scanPlayground, "SELECT id, name, language, url_template FROM playgrounds ORDER BY id")
}

func (a playgroundTx) Create(p linkifiers.Playground) (linkifiers.PlaygroundID, error) {
	var id linkifiers.PlaygroundID
	err := a.t.guarded(func() error {
		return a.t.get("INSERT INTO playgrounds (name, language, url_template) VALUES (?, ?, ?) RETURNING id",
			[]any{p.Name, p.Language, p.URLTemplate}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create playground: %w", err)
	}
	return id, nil
}

func (a playgroundTx) Delete(id linkifiers.PlaygroundID) error {
	res, err := a.t.exec("DELETE FROM playgrounds WHERE id = ?", id)
	if err != nil {
		return err
	}
	return mustAffect(res, "playground", id)
}
