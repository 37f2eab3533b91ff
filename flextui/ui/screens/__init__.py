"""One screen module per area: tokens, registry, reports, entitlements, catalog, users."""
