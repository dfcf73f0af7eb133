package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/emoji"
)

func scanEmoji(row *sql.Rows) (emoji.Custom, error) {
	var c emoji.Custom
	return c, row.Scan(&c.ID, &c.Name, &c.AuthorID, &c.Deactivated, &c.FileName, &c.StillFileName)
}

func (a realmTx) ListEmoji() ([]emoji.Custom, error) {
	return scanAll(a.t, scanEmoji, `SELECT id, name, author_id, deactivated, file_name, still_file_name
		FROM realm_emoji ORDER BY id`)
}

func (a realmTx) CreateEmoji(c emoji.Custom) (emoji.ID, error) {
	var id emoji.ID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO realm_emoji (name, author_id, deactivated, file_name, still_file_name)
			VALUES (?, ?, ?, ?, ?) RETURNING id`,
			[]any{c.Name, c.AuthorID, c.Deactivated, c.FileName, c.StillFileName}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create emoji %s: %w", c.Name, err)
	}
	return id, nil
}

func (a realmTx) UpdateEmoji(c emoji.Custom) error {
	return a.t.guarded(func() error {
		res, err := a.t.exec(`UPDATE realm_emoji SET name = ?, author_id = ?, deactivated = ?, file_name = ?,
			still_file_name = ? WHERE id = ?`, c.Name, c.AuthorID, c.Deactivated, c.FileName, c.StillFileName, c.ID)
		if err != nil {
			return err
		}
		return mustAffect(res, "emoji", c.ID)
	})
}
