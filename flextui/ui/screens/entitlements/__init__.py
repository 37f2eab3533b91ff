"""The entitlements area: the account → entitlement → line item tree (tree.py), its forms (forms.py) and record texts (details.py)."""
