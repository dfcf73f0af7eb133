package people

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/teamchat/chat/realms"
)

// PasswordHashing is the argon2id cost of new password hashes. Stored hashes carry their own
// parameters, so changing the cost never locks anyone out. The defaults suit production; test
// suites choose a cheap cost (chattest uses 8 KiB, 1 pass, 1 thread), which makes creating a
// user with a password, and a login, take microseconds. New computes no hash either way.
type PasswordHashing struct {
	MemoryKiB uint32 // default 65536 (64 MiB)
	Passes    uint32 // default 1
	Threads   uint8  // default 2
}

func (h PasswordHashing) withDefaults() PasswordHashing {
	if h.MemoryKiB == 0 {
		h.MemoryKiB = 64 * 1024
	}
	if h.Passes == 0 {
		h.Passes = 1
	}
	if h.Threads == 0 {
		h.Threads = 2
	}
	return h
}

const argonKeyLen = 32

// hashPassword returns an encoded argon2id hash: $argon2id$v=19$m=..,t=..,p=..$salt$key.
func (h PasswordHashing) hashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, h.Passes, h.MemoryKiB, h.Threads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.MemoryKiB, h.Passes,
		h.Threads, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// burn derives a key from password at this cost and discards it: a login naming an unknown
// user spends as long as one checking a known user's password, so that response times do not
// tell which emails have accounts. It needs no stored hash, so New computes nothing up front.
func (h PasswordHashing) burn(password string) {
	var salt [16]byte
	argon2.IDKey([]byte(password), salt[:], h.Passes, h.MemoryKiB, h.Threads, argonKeyLen)
}

// checkPassword reports whether password matches an encoded hash, in constant time. A
// malformed or empty hash matches nothing.
func checkPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 || m > 1<<22 || t > 64 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 || len(want) > 128 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

const alphanumeric = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newAPIKey returns 32 characters drawn uniformly from [A-Za-z0-9] with crypto/rand.
func newAPIKey() (string, error) {
	return randomString(32, alphanumeric)
}

func randomString(n int, alphabet string) (string, error) {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", fmt.Errorf("random: %w", err)
		}
		b[i] = alphabet[v.Int64()]
	}
	return string(b), nil
}

// PasswordMinLength and PasswordMaxLength bound passwords, as register reports them.
const (
	PasswordMinLength = 6
	PasswordMaxLength = 100
)

// passwordStrong is Zulip's check_password_strength with this server's policy: at least
// PasswordMinLength characters (any non-empty password under WeakPasswords, as Zulip's
// development settings allow), at most PasswordMaxLength.
func (s *Service) passwordStrong(password string) bool {
	minLength := PasswordMinLength
	if s.cfg.WeakPasswords {
		minLength = 1
	}
	n := utf8.RuneCountInString(password)
	return n >= minLength && n <= PasswordMaxLength
}

// EmailDomain is Zulip's get_bot_domain (its get_fake_email_domain): the domain of the
// addresses the server makes up, bots' and the placeholders of hidden addresses
// (engine.Engine.EmailDomain).
func (s *Service) EmailDomain(realm realms.Realm) string { return s.eng.EmailDomain(realm) }
