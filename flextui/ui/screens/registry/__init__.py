"""The container-registry area: projects and what they hold (projects.py), the download log (downloads.py), the registry secret (secret.py); shared pieces in common.py."""
