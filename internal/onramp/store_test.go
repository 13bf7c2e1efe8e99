package onramp

import (
	"context"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The order store on SQLite and, when configured, Postgres (migration 008).
func TestStore_Orders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		p := &project.Project{Name: "shop", Features: project.DefaultFeatures()}
		if err := project.NewService(db).Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		st := NewStore(db)
		at := time.Date(2026, 3, 4, 5, 6, 7, 8_000_000, time.UTC)
		mk := func(id string, created time.Time) *Order {
			return &Order{ID: id, ProjectID: p.ID, Provider: "dev", Status: StatusPending, Address: "0xabc", Network: "eip155:31337", ChainID: "31337",
				PurchaseCurrency: "USDC", PurchaseAmount: "9.900000", PaymentCurrency: "USD", PaymentAmount: "10.00", PaymentMethod: MethodCard, CreatedAt: created, UpdatedAt: created}
		}
		a, b := mk(newOrderID(), at), mk(newOrderID(), at.Add(time.Second))
		for _, o := range []*Order{a, b} {
			if err := st.Create(ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		got, err := st.Get(ctx, p.ID, a.ID)
		if err != nil || *got != *a {
			t.Fatalf("get: %+v %v; want %+v", got, err, a)
		}
		if _, err := st.Get(ctx, "0123456789abcdef0123456789abcdef", a.ID); apperr.Code(err) != apperr.NotFound {
			t.Fatalf("another project's order: %v", err)
		}
		// One claim wins.
		if won, err := st.claim(ctx, a.ID, at); !won || err != nil {
			t.Fatalf("first claim: %v %v", won, err)
		}
		if won, _ := st.claim(ctx, a.ID, at); won {
			t.Fatal("second claim won")
		}
		// Empty fields keep the stored ones; a final order stays as it is.
		if err := st.Update(ctx, a.ID, OrderUpdate{Status: StatusCompleted, TxHash: "0xfeed"}, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		st.Update(ctx, a.ID, OrderUpdate{Status: StatusFailed, Error: "late"}, at.Add(2*time.Minute))
		got, _ = st.Get(ctx, p.ID, a.ID)
		if got.Status != StatusCompleted || got.TxHash != "0xfeed" || got.PurchaseAmount != "9.900000" || got.Error != "" || !got.UpdatedAt.Equal(at.Add(time.Minute)) {
			t.Fatalf("updated: %+v", got)
		}
		if err := st.SetProviderRef(ctx, b.ID, "ref-1"); err != nil {
			t.Fatal(err)
		}
		list, err := st.List(ctx, p.ID, 10)
		if err != nil || len(list) != 2 || list[0].ID != b.ID || list[0].ProviderRef != "ref-1" || list[1].ID != a.ID {
			t.Fatalf("list: %+v %v", list, err)
		}
		if list, _ := st.List(ctx, p.ID, 1); len(list) != 1 {
			t.Fatalf("limit 1: %d orders", len(list))
		}
	})
}
