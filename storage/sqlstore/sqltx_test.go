package sqlstore_test

import (
	"errors"
	"testing"

	"github.com/teamchat/chat/storage"
)

// TestSQLTx: both transaction kinds offer storage.SQLTx; statements run in the transaction
// (rolled back with it), and a missing row is ErrNotFound.
func TestSQLTx(t *testing.T) {
	t.Parallel()
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := t.Context()
			errRollback := errors.New("roll back")
			err := s.Update(ctx, func(tx storage.Tx) error {
				q, ok := tx.(storage.SQLTx)
				if !ok {
					t.Fatal("Tx lacks storage.SQLTx")
				}
				if q.SQLDialect() != name {
					t.Errorf("SQLDialect() = %q, want %q", q.SQLDialect(), name)
				}
				if err := q.ExecSQL(`CREATE TABLE sqltx_probe (n INTEGER)`); err != nil {
					return err
				}
				if err := q.ExecSQL(`INSERT INTO sqltx_probe (n) VALUES (?)`, 7); err != nil {
					return err
				}
				var n int
				if err := q.QueryRowSQL(`SELECT n FROM sqltx_probe WHERE n = ?`, []any{7}, &n); err != nil || n != 7 {
					t.Errorf("QueryRowSQL = %d, %v; want 7", n, err)
				}
				if err := q.QueryRowSQL(`SELECT n FROM sqltx_probe WHERE n = ?`, []any{8}, &n); !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("QueryRowSQL of no row: %v, want ErrNotFound", err)
				}
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Fatalf("Update: %v", err)
			}
			err = s.View(ctx, func(tx storage.ReadTx) error {
				q, ok := tx.(storage.SQLTx)
				if !ok {
					t.Fatal("ReadTx lacks storage.SQLTx")
				}
				exists := map[string]string{
					"sqlite":   `SELECT count(*) FROM sqlite_master WHERE name = ?`,
					"postgres": `SELECT count(*) FROM information_schema.tables WHERE table_name = ? AND table_schema = current_schema()`,
				}[name]
				var n int
				if err := q.QueryRowSQL(exists, []any{"sqltx_probe"}, &n); err != nil {
					return err
				}
				if n != 0 {
					t.Error("the table created by a rolled-back transaction exists")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
