package account

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/ens"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/project"
)

// ensEnv deploys an ENS registry and resolver on the dev chain.
type ensEnv struct {
	*env
	owner              wallet
	registry, resolver common.Address
}

var (
	ensRegistryArtifact = contracts.MustLoad("DevENSRegistry")
	ensResolverArtifact = contracts.MustLoad("DevENSResolver")
)

func newENS(t *testing.T) *ensEnv {
	e := newEnv(t)
	owner := e.fund("1", "")
	reg := e.send(owner, nil, ensRegistryArtifact.Bytecode, 3_000_000).ContractAddress
	res := e.send(owner, nil, ensResolverArtifact.Bytecode, 3_000_000).ContractAddress
	return &ensEnv{env: e, owner: owner, registry: reg, resolver: res}
}

func (e *ensEnv) call(to common.Address, a *contracts.Artifact, method string, args ...any) {
	e.t.Helper()
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	e.send(e.owner, &to, data, 300_000)
}

// setReverse gives addr a reverse record; setForward points name at addr,
// with an avatar text record when avatar is not "".
func (e *ensEnv) setReverse(addr common.Address, name string) {
	node := ens.Namehash(strings.ToLower(addr.Hex()[2:]) + ".addr.reverse")
	e.call(e.registry, ensRegistryArtifact, "setResolver", node, e.resolver)
	e.call(e.resolver, ensResolverArtifact, "setName", node, name)
}

func (e *ensEnv) setForward(name string, addr common.Address, avatar string) {
	node := ens.Namehash(name)
	e.call(e.registry, ensRegistryArtifact, "setResolver", node, e.resolver)
	e.call(e.resolver, ensResolverArtifact, "setAddr", node, addr)
	if avatar != "" {
		e.call(e.resolver, ensResolverArtifact, "setText", node, "avatar", avatar)
	}
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestENS_ReverseName(t *testing.T) {
	ctx := context.Background()
	e := newENS(t)
	alice, mallory, bob, nobody := common.Address{0xa1}, common.Address{0xa2}, common.Address{0xb0}, common.Address{0xc0}
	e.setReverse(alice, "alice.eth")
	e.setForward("alice.eth", alice, "https://example.com/alice.png")
	e.setReverse(mallory, "alice.eth") // claims alice's name; alice.eth does not point back
	e.setReverse(bob, "bob.eth")
	e.setForward("bob.eth", bob, "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")

	ens := ENS{Client: func() *evm.Client { return e.clients.For(e.chain.CAIPNetworkID) }, Registry: e.registry}
	tests := []struct {
		name         string
		addr         common.Address
		want, avatar string
	}{
		{"OKWithAvatar", alice, "alice.eth", "https://example.com/alice.png"},
		{"ForwardMismatch", mallory, "<nil>", "<nil>"},
		{"AvatarNotLoadable", bob, "bob.eth", "<nil>"},
		{"NoRecord", nobody, "<nil>", "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ens.ReverseName(ctx, tt.addr)
			if err != nil {
				t.Fatal(err)
			}
			if str(id.Name) != tt.want || str(id.Avatar) != tt.avatar {
				t.Fatalf("identity = %s, %s; want %s, %s", str(id.Name), str(id.Avatar), tt.want, tt.avatar)
			}
		})
	}

	t.Run("IPFSAvatarWithGateway", func(t *testing.T) {
		withIPFS := ens
		withIPFS.IPFSAvatars = true
		id, err := withIPFS.ReverseName(ctx, bob)
		if err != nil || !strings.HasPrefix(str(id.Avatar), "ipfs://") {
			t.Fatalf("avatar %s, err %v", str(id.Avatar), err)
		}
	})

	t.Run("NoUpstream", func(t *testing.T) {
		id, err := ENS{Client: func() *evm.Client { return nil }, Registry: e.registry}.ReverseName(ctx, alice)
		if err != nil || id.Name != nil {
			t.Fatalf("identity %v, err %v", id, err)
		}
	})

	t.Run("ServiceCaches", func(t *testing.T) {
		svc := New(Config{Networks: e.reg, Clients: e.clients, Names: Resolvers{ens}})
		spend, spent := counter()
		for range 3 {
			id, err := svc.Identity(ctx, alice, spend)
			if err != nil || str(id.Name) != "alice.eth" {
				t.Fatalf("identity %s, err %v", str(id.Name), err)
			}
		}
		// "No name" is cached too.
		for range 2 {
			if id, err := svc.Identity(ctx, nobody, spend); err != nil || id.Name != nil {
				t.Fatalf("identity %v, err %v", id, err)
			}
		}
		if spent.Load() != 2 {
			t.Fatalf("%d lookups reached the chain, want 2", spent.Load())
		}
	})
}

// avatarResolver names every address "alice.eth" with a fixed avatar.
type avatarResolver string

func (a avatarResolver) ReverseName(context.Context, common.Address) (Identity, error) {
	name, avatar := "alice.eth", string(a)
	return Identity{Name: &name, Avatar: &avatar}, nil
}

// The identity answer points the page at latchd's image proxy, never at the
// avatar's host (which would learn the visitor's IP); data: images stay inline.
func TestHandler_IdentityAvatarThroughLatchd(t *testing.T) {
	const base = "https://latch.example"
	p := &project.Project{ID: "0123456789abcdef0123456789abcdef"}
	for _, tt := range []struct{ avatar, want string }{
		{"https://avatars.example/alice.png?s=1", base + "/v1/image?url=https%3A%2F%2Favatars.example%2Falice.png%3Fs%3D1&projectId=" + p.ID},
		{"ipfs://bafyexample/a.png", base + "/v1/image?url=ipfs%3A%2F%2Fbafyexample%2Fa.png&projectId=" + p.ID},
		{"data:image/png;base64,AAAA", "data:image/png;base64,AAAA"},
	} {
		t.Run(tt.avatar, func(t *testing.T) {
			h := NewHandler(New(Config{Names: avatarResolver(tt.avatar)}), func(*http.Request) string { return base + "/" }, nil)
			r := httptest.NewRequest(http.MethodGet, "/v1/identity/0x00000000000000000000000000000000000000a1", nil)
			r.SetPathValue("address", "0x00000000000000000000000000000000000000a1")
			r = r.WithContext(project.NewContext(r.Context(), p))
			w := httptest.NewRecorder()
			h.Identity(w, r)
			var id Identity
			if err := json.Unmarshal(w.Body.Bytes(), &id); err != nil || w.Code != http.StatusOK {
				t.Fatalf("%d %s: %v", w.Code, w.Body, err)
			}
			if str(id.Avatar) != tt.want {
				t.Fatalf("avatar %s, want %s", str(id.Avatar), tt.want)
			}
		})
	}
}
