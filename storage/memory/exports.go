package memory

import (
	"github.com/teamchat/chat/storage"
)

// exportTx is the data exports accessor; j is nil in a read-only transaction.
type exportTx struct {
	t *readTx
	j *journal
}

func (a exportTx) Get(id int64) (storage.Export, error) {
	if err := a.t.live(); err != nil {
		return storage.Export{}, err
	}
	e, ok := a.t.d.exports[id]
	if !ok {
		return storage.Export{}, notFound("export", id)
	}
	return e, nil
}

func (a exportTx) List() ([]storage.Export, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.exports, same), nil
}

func (a exportTx) Create(e storage.Export) (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if a.t.d.exports == nil {
		a.t.d.exports = map[int64]storage.Export{}
	}
	e.ID = nextID(a.j, &a.t.d.exportSeq)
	setKey(a.j, a.t.d.exports, e.ID, e)
	return e.ID, nil
}

func (a exportTx) Update(e storage.Export) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.exports[e.ID]; !ok {
		return notFound("export", e.ID)
	}
	setKey(a.j, a.t.d.exports, e.ID, e)
	return nil
}

func (t *readTx) Exports() storage.ExportReader { return exportTx{t: t} }
func (t *tx) Exports() storage.ExportWriter     { return exportTx{t: &t.readTx, j: t.j} }
