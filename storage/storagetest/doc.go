// Package storagetest is the conformance suite every storage backend must pass, plus Faulty, a
// wrapper that makes writes fail on demand so the chat package can prove that a failure in the
// middle of an operation changes nothing and publishes nothing.
//
// A backend's test is a few lines:
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storage.Storage {
//			s := open(t)
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// Run calls open once per subtest, so every subtest starts from an empty store. The suite uses
// only the storage interfaces. One file per area holds that area's behaviours; contract.go
// pins the cross-cutting rules (rollback, visibility of writes inside a transaction, sentinels,
// ordering, concurrency, cancellation).
package storagetest
