"""Word lists for realistic generated names (shared by every generator)."""

FIRST_NAMES = (
    "Ada Alan Amara Anil Anna Arjun Beatriz Ben Carla Chen Chiara Dara David Elena Emeka Erik Fatima Femi "
    "Grace Hana Hugo Ines Ivan Jana Jonas Julia Kai Kenji Lara Leila Liam Lucia Mara Marek Maya Mei Nadia "
    "Nikos Noor Olga Omar Paula Pedro Priya Rafael Rosa Sami Sara Sofia Tariq Tomas Uma Vera Yusuf Zoe"
).split()

LAST_NAMES = (
    "Abara Berg Costa Dahl Eze Fischer Garcia Haddad Ito Jensen Kowalski Larsen Moreau Novak Okafor Patel "
    "Quinn Rossi Sato Tanaka Ueda Varga Weber Xu Yilmaz Zhang Mensah Silva Nakamura Olsen Kaur Lindqvist"
).split()

COMPANY_A = (
    "Acme Apex Arcadia Atlas Beacon Boreal Cobalt Cedar Delta Ember Fathom Granite Harbor Helix Indigo "
    "Juniper Keystone Lumen Meridian Nimbus Northwind Onyx Orbit Pioneer Quartz Redwood Sable Summit "
    "Tandem Umbra Vertex Willow Zenith"
).split()

COMPANY_B = (
    "Robotics Analytics Systems Labs Logistics Medical Dynamics Networks Software Energy Instruments "
    "Aerospace Foods Pharma Studios Microsystems Holdings Security Devices Telecom"
).split()

PRODUCT_WORDS = (
    "Designer Analyzer Studio Server Gateway Insight Vault Forge Pulse Sentinel Compass Canvas Beacon "
    "Orchestrator Ledger Harbor Lens Relay Atlas Prism"
).split()

PRODUCT_PREFIX = "Flex Nova Quantum Stellar Vector Cloud Edge Core Data Smart".split()

TOKEN_PURPOSES = (
    "ci-deploy nightly-report jenkins-prod gitlab-runner backup-sync crm-bridge erp-export audit-pull "
    "usage-collector license-sync portal-bot support-tools billing-etl dashboard grafana-read "
    "terraform ansible-ops release-bot data-lake"
).split()

IMPERSONATION_REASONS = (
    "Support case investigation",
    "Entitlement migration on behalf of customer",
    "Troubleshooting activation failure",
    "Customer requested license report",
    "Onboarding assistance",
    "Renewal reconciliation",
)

COUNTRIES = "US DE GB FR JP IN BR CA AU NL SE IT ES SG".split()
CITIES = "Austin Berlin London Lyon Osaka Pune Recife Toronto Sydney Utrecht Malmo Turin Seville Singapore".split()
