package plugins_test

import (
	"context"
	"testing"

	"app/backend/plugins"
	"app/backend/plugins/registry"
	"app/backend/plugins/registry/registrytest"
)

// Issue 20, item 3: a package carries a signed offline mirror of the registry. The online
// registry answers when it can; the mirror serves when it cannot be reached or none is named,
// with the same checks; a newer plugin online is offered, never installed unasked.
func TestTheBundledMirrorServesWhenTheRegistryCannot(t *testing.T) {
	ctx := context.Background()
	mirrorReg := published(t) // weaviate 1.0.0, signed with the mirror's (the build's) key
	official := registry.Official{Key: mirrorReg.Public().String()}
	mirror, err := registry.MirrorSource(mirrorReg.Dir, official)
	if err != nil {
		t.Fatal(err)
	}
	withMirror := func(o *plugins.Options) { o.Mirror = &mirror }

	t.Run("the registry cannot be reached: the mirror serves, and says so", func(t *testing.T) {
		m, _ := manager(t, mirrorReg.Source(closedURL(t)), withMirror)
		res, err := m.Install(ctx, "weaviate", nil)
		if err != nil || !res.Changed || res.Version != "1.0.0" || !res.FromMirror {
			t.Fatalf("%+v %v", res, err)
		}
		list, err := m.List(ctx)
		if err != nil || len(list) != 1 || !list[0].FromMirror || list[0].Status != plugins.StatusInstalled {
			t.Fatalf("%+v %v", list, err)
		}
	})
	t.Run("no registry is named (a package of a build without one): the mirror serves", func(t *testing.T) {
		m, _ := manager(t, registry.Source{}, withMirror)
		res, err := m.Install(ctx, "weaviate", nil)
		if err != nil || !res.FromMirror {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("the registry answers: it serves, and its newer version is offered, not installed", func(t *testing.T) {
		online := registrytest.New(t)
		online.Add(t, release(t, "1.0.0"))
		online.Add(t, release(t, "1.1.0"))
		online.Publish(t)
		m, dir := manager(t, mirrorReg.Source(closedURL(t)), withMirror)
		if _, err := m.Install(ctx, "weaviate", nil); err != nil { // 1.0.0 from the mirror
			t.Fatal(err)
		}
		m2 := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: online.Source(online.FileURL()), Mirror: &mirror, Log: quietLog()})
		res, err := m2.Install(ctx, "weaviate", nil)
		if err != nil || res.Changed || res.Version != "1.0.0" || res.Available != "1.1.0" || res.FromMirror {
			t.Fatalf("an installed plugin must stay; the newer one offered: %+v %v", res, err)
		}
	})
	t.Run("a registry that answers wrongly is an error, not a reason to use the mirror", func(t *testing.T) {
		stranger := registrytest.New(t)
		stranger.Add(t, release(t, "9.0.0"))
		stranger.Publish(t)
		m, dir := manager(t, registry.Source{URL: stranger.FileURL(), Keys: []registry.PublicKey{mirrorReg.Public()}}, withMirror)
		_, err := m.Install(ctx, "weaviate", nil)
		if registry.CodeOf(err) != registry.CodeUnknownKey {
			t.Fatalf("got %v", err)
		}
		assertNothingHalfInstalled(t, dir)
	})
	t.Run("a mirror signed with another key than the build's is refused", func(t *testing.T) {
		other := registrytest.New(t)
		bad, err := registry.MirrorSource(mirrorReg.Dir, registry.Official{Key: other.Public().String()})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := manager(t, registry.Source{}, func(o *plugins.Options) { o.Mirror = &bad })
		if _, err := m.Install(ctx, "weaviate", nil); registry.CodeOf(err) != registry.CodeUnknownKey {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a build without an official key trusts no mirror", func(t *testing.T) {
		if _, err := registry.MirrorSource(mirrorReg.Dir, registry.Official{}); err == nil {
			t.Fatal("a mirror was trusted without a key")
		}
	})
}
