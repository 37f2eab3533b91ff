"""The record texts of the entitlement area: an entitlement, a line item, a product; server strings cleaned, never markup."""

from __future__ import annotations

from datetime import datetime

from flextui.api.entitlements import (
    Entitlement,
    LineItem,
    LineItemProduct,
)
from flextui.render.entitlements import attribute_value_text
from flextui.ui.widgets.record import Body, when, yes_no


def entitlement_detail(ent: Entitlement, now_ms: int, items: list[LineItem] | None = None, *, show_title: bool = True) -> Body:
    b = Body(show_title=show_title)
    b.title(f"Entitlement {ent.entitlement_id}")
    b.line("Status", ent.status).line("Description", ent.description)
    for account in ent.accounts:
        tags = [x for x in (account.account_type, account.partner_tier_name, "owner" if account.is_current_owner else None) if x]
        b.line("Account", f"{account.account_name or ''} ({account.account_id})".strip() + (f" · {' · '.join(tags)}" if tags else ""))
        if account.contact_email:
            b.line("  contact", account.contact_email)
    b.line("Ship to", " · ".join(x for x in (ent.ship_to_email, ent.ship_to_address) if x))
    b.line("Portal login", yes_no(ent.allow_portal_login)).line("E-mail template", ent.email_template_variation)
    b.line("Created", when(ent.created, now_ms)).line("Updated", when(ent.updated, now_ms))
    count = ent.line_item_count if ent.line_item_count is not None else (len(items) if items is not None else None)
    b.line("Line items", "" if count is None else str(count))
    if items:
        states: dict[str, int] = {}
        for li in items:
            states[(li.state or "?").lower()] = states.get((li.state or "?").lower(), 0) + 1
        b.line("  by state", ", ".join(f"{n} {s}" for s, n in sorted(states.items())))
    if ent.attributes:
        b.section("Attributes").pairs((a.name, attribute_value_text(a.value)) for a in ent.attributes)
    return b


def line_item_detail(
    li: LineItem, ent: Entitlement | None, now_ms: int, *, show_title: bool = True, policies_key: str | None = None
) -> Body:
    """`policies_key`: the key that sets the policies here, as bound (None: none does, e.g. read-only)."""
    b = Body(show_title=show_title)
    b.title(f"Line item {li.activation_id}" + (" (maintenance)" if li.maintenance else ""))
    b.line("Entitlement", li.entitlement_id or (ent.entitlement_id if ent else None))
    b.line("State", li.state).line("Order type", li.order_type)
    for product in li.products:
        b.line(
            "Product",
            f"{product.product_name or '?'} {product.product_version or ''}".strip()
            + (f" · part {product.part_number}" if product.part_number else ""),
        )
        model = product.license_model
        if model is not None and model.license_model_name:
            extra = [
                x
                for x in (
                    model.issuer and f"issuer {model.issuer}",
                    model.serial_number and f"serial {model.serial_number}",
                    model.vendor_string and f"vendor {model.vendor_string}",
                )
                if x
            ]
            b.line("License model", model.license_model_name + (f" · {' · '.join(extra)}" if extra else ""))
            b.line("  notice", model.notice)
    copies = "" if li.quantity is None else str(li.quantity)
    if li.quantity_per_copy and li.quantity_per_copy != 1:
        copies += f" × {li.quantity_per_copy} per copy"
    b.line("Quantity", copies)
    term = f"{li.start_date or '?'} → " + ("permanent" if li.permanent else (li.expiry_date or "?"))
    if li.duration:
        term += f" ({li.duration} days)"
    b.line("Term", term)
    b.line("Parent", li.parent_activation_id)
    b.line("Created", when(li_created(li), now_ms))
    b.section("Policies")
    if li.policies:
        for key, value in li.policies.items():
            if isinstance(value, dict):
                count = value.get("allowedCount")
                text = "—" if count is None else f"{count} allowed"
                if value.get("policyTermDuration") is not None:
                    text += f" per {value.get('policyTermDuration')} {str(value.get('policyTermUnit') or '').lower()}"
                b.pairs([(key, text)])
            else:
                b.pairs([(key, yes_no(value) if isinstance(value, bool) else value)])
    else:
        b.note(f"  none set ({policies_key} sets them)" if policies_key else "  none set")
    if li.attributes:
        b.section("Attributes").pairs((a.name, attribute_value_text(a.value)) for a in li.attributes)
    return b


def li_created(li: LineItem) -> datetime | None:
    from flextui.api.timestamps import lenient_timestamp

    return lenient_timestamp(li.created_on)


def product_detail(product: LineItemProduct, li: LineItem | None, *, show_title: bool = True, catalogue_key: str | None = None) -> Body:
    """`catalogue_key`: the key that opens the product in the catalogue, as bound (the hint said `g`, which did nothing)."""
    b = Body(show_title=show_title)
    b.title(f"Product {product.product_name or '?'} {product.product_version or ''}".strip())
    b.line("Name", product.product_name).line("Version", product.product_version).line("Part number", product.part_number)
    b.line("Quantity", "" if product.quantity is None else str(product.quantity))
    model = product.license_model
    if model is not None:
        b.section("License model")
        b.line("Name", model.license_model_name).line("Issuer", model.issuer).line("Serial number", model.serial_number)
        b.line("Vendor string", model.vendor_string).line("Notice", model.notice)
    if li is not None:
        b.line("Line item", li.activation_id)
    if catalogue_key:
        b.note(f"\n{catalogue_key} opens it in the catalogue")
    return b
