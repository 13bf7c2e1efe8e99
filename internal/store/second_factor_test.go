package store_test

import (
	"context"
	"testing"

	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// Migration 016 (issue 40): the second factor's tables, their keys and
// their cascade with the user, the same in SQLite and Postgres.
func TestMigration_SecondFactor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		exec := func(q string, args ...any) error {
			t.Helper()
			_, err := db.Exec(ctx, q, args...)
			return err
		}
		must := func(q string, args ...any) {
			t.Helper()
			if err := exec(q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		count := func(table string) int {
			t.Helper()
			var n int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		const pid = "0123456789abcdef0123456789abcdef"
		must(`INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, pid, "p", 1, 1)
		must(`INSERT INTO auth_users (id, project_id, email, created_at) VALUES (?, ?, ?, ?)`, "u1", pid, "a@example.com", 1)
		must(`INSERT INTO auth_devices (user_id, device_id, approved_at, factor_at) VALUES (?, ?, ?, ?)`, "u1", "d1", 1, 2)
		must(`INSERT INTO auth_sessions (id, user_id, project_id, device_id, created_at, verified_at, last_used_at, access_hash, access_expires_at, factor_at, passkey_at, code_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, "s1", "u1", pid, "d1", 1, 1, 1, []byte{1}, 1, int64(1)<<41, nil, 3)

		// One authenticator per user; the step is a 64-bit number.
		must(`INSERT INTO auth_totp (user_id, key_id, secret, created_at, last_step) VALUES (?, ?, ?, ?, ?)`, "u1", "k1", []byte{1, 2}, 1, int64(1)<<40)
		if err := exec(`INSERT INTO auth_totp (user_id, key_id, secret, created_at) VALUES (?, ?, ?, ?)`, "u1", "k1", []byte{3}, 1); !store.IsUniqueViolation(err) {
			t.Fatalf("a second authenticator for one user: %v", err)
		}
		// A credential id belongs to one passkey, and the row's public id too.
		must(`INSERT INTO auth_passkeys (credential_id, user_id, id, public_key, sign_count, created_at) VALUES (?, ?, ?, ?, ?, ?)`, []byte{9}, "u1", "CQ", []byte{7}, int64(1)<<33, 1)
		if err := exec(`INSERT INTO auth_passkeys (credential_id, user_id, id, public_key, created_at) VALUES (?, ?, ?, ?, ?)`, []byte{9}, "u1", "other", []byte{7}, 1); !store.IsUniqueViolation(err) {
			t.Fatalf("a credential id twice: %v", err)
		}
		if err := exec(`INSERT INTO auth_passkeys (credential_id, user_id, id, public_key, created_at) VALUES (?, ?, ?, ?, ?)`, []byte{8}, "nobody", "x", []byte{7}, 1); err == nil {
			t.Fatal("a passkey of a missing user was stored")
		}
		must(`INSERT INTO auth_webauthn_challenges (id, project_id, kind, device_id, data, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, "c1", pid, "login", "d1", "{}", 1, 2)
		must(`INSERT INTO auth_factor_tickets (hash, project_id, user_id, device_id, via, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, []byte{5}, pid, "u1", "d1", "email", 1, 2)
		if err := exec(`INSERT INTO auth_factor_tickets (hash, project_id, user_id, device_id, via, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, []byte{5}, pid, "u1", "d1", "email", 1, 2); !store.IsUniqueViolation(err) {
			t.Fatalf("a ticket hash twice: %v", err)
		}

		var factor, code *int64
		if err := db.QueryRow(ctx, `SELECT factor_at, code_at FROM auth_sessions WHERE id = ?`, "s1").Scan(&factor, &code); err != nil || factor == nil || *factor != int64(1)<<41 || code == nil {
			t.Fatalf("session columns: %v %v %v", factor, code, err)
		}

		// Deleting the user takes its factors, tickets and devices with it; the project its challenges.
		must(`DELETE FROM auth_users WHERE id = ?`, "u1")
		for _, table := range []string{"auth_totp", "auth_passkeys", "auth_factor_tickets", "auth_devices"} {
			if n := count(table); n != 0 {
				t.Errorf("%s: %d rows after the user was deleted", table, n)
			}
		}
		must(`DELETE FROM projects WHERE id = ?`, pid)
		if n := count("auth_webauthn_challenges"); n != 0 {
			t.Errorf("%d challenges after the project was deleted", n)
		}
	})
}
