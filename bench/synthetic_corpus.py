"""A seeded synthetic corpus of Markdown documents for the benchmarks: headings, paragraphs with numbers, dates
and names, lists and tables, in the shapes of policies, guides, reports, runbooks and meeting notes."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

CORPUS_KEY_PREFIX = "bench-doc-"

FIRST_NAMES = ["Maya", "Daniel", "Priya", "Tomasz", "Aiko", "Lucas", "Fatima", "Jonas", "Elena", "Kwame", "Sofia",
               "Mateo", "Ingrid", "Ravi", "Chloe", "Omar", "Hannah", "Yusuf", "Lena", "Marco", "Grace", "Hiroshi",
               "Amara", "Nils", "Beatriz", "Samuel", "Zoe", "Arjun", "Clara", "Felix"]
LAST_NAMES = ["Okafor", "Reyes", "Sharma", "Kowalski", "Tanaka", "Moreau", "Haddad", "Berg", "Petrova", "Mensah",
              "Rossi", "Alvarez", "Larsen", "Iyer", "Dubois", "Farouk", "Schmidt", "Demir", "Novak", "Bianchi",
              "Lee", "Sato", "Nwosu", "Holm", "Costa", "Achebe", "Walsh", "Patel", "Fischer", "Kim"]
CITIES = ["Portland", "Dublin", "Frankfurt", "Singapore", "Toronto", "Lisbon", "Nairobi", "Oslo", "Austin", "Sydney",
          "Warsaw", "Osaka", "Bogotá", "Leeds", "Montréal", "Cape Town", "Tallinn", "Denver", "Seoul", "Lyon"]
TEAMS = ["Finance", "Customer Success", "Platform", "Security", "Payroll", "Logistics", "Data Engineering",
         "Procurement", "Legal", "Facilities", "Mobile", "Billing", "Site Reliability", "People Operations"]
PRODUCTS = ["Lumen Notes", "Orbit Analytics", "Harbor Sync", "Nimbus Vault", "Atlas Routing", "Cedar CRM",
            "Quartz Billing", "Beacon Alerts", "Summit Forms", "Delta Ledger", "Prism Search", "Tundra Backup"]
COMPONENTS = ["ingest", "search", "billing", "auth", "export", "notification", "scheduler", "gateway", "cache"]
METRICS = ["monthly active users", "average response time", "churn rate", "gross margin", "ticket backlog",
           "on-time delivery rate", "error rate", "storage usage", "net revenue retention", "first-response time"]
UNITS = ["ms", "GB", "requests per second", "tickets", "days", "hours", "percent"]
EXPENSES = ["hotel stays", "meals", "rail travel", "taxis", "conference fees", "home-office equipment", "parking"]
PERIODS = ["night", "day", "trip", "month", "quarter"]
DIRECTIONS = ["rose", "fell", "grew", "declined", "increased", "decreased"]
ROLES = ["finance director", "head of security", "regional manager", "chief of staff", "procurement lead"]
PLANS = ["Free", "Plus", "Pro", "Team", "Enterprise"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
STATUSES = ["done", "in progress", "blocked", "not started", "waiting for review"]

SENTENCES = [
    "{person} from the {team} team confirmed on {date} that {metric} reached {number} {unit}.",
    "Employees based in {city} may claim up to {money} per {period} for {expense}.",
    "The {metric} {direction} by {pct} percent compared with Q{quarter} {year}.",
    "The {product} rollout in {city} is scheduled for {date}, with a budget of {money}.",
    "Requests above {number} per minute are throttled for {small} seconds and receive a 429 response.",
    "Approval from {person}, the {role}, is required for any purchase above {money}.",
    "Since {date}, the {team} team has handled {number} tickets, {pct} percent of them within {small} hours.",
    "The {city} office employs {number} people across {small} departments.",
    "{product} keeps backups for {small} days and audit logs for {small2} months.",
    "If the {metric} exceeds {number} {unit} for more than {small} minutes, page the on-call engineer.",
    "{person} will present the {product} roadmap to the board on {date}.",
    "Contracts signed after {date} include a notice period of {small} days.",
    "Customers on the {plan} plan get {number} GB of storage and up to {small} seats.",
    "In {year}, revenue from {city} was {money}, up from {money2} a year earlier.",
    "The {team} team recommends restarting the {component} service before escalating to {person}.",
    "Travel to {city} must be approved at least {small} business days before departure.",
    "The target for {metric} in Q{quarter} {year} is {number} {unit}.",
    "{person} and {person2} agreed to review the {metric} figures again on {date}.",
    "Refund requests must be filed within {small} days of the charge and are paid within {small2} business days.",
    "Each {component} node handles about {number} requests per second at {pct} percent CPU.",
    "The {component} service was migrated to {city} on {date} after {small} weeks of testing.",
    "Overtime above {small} hours per week needs written approval from the {role}.",
]

SECTION_TITLES = {
    "policy": ["Purpose", "Scope", "Eligibility", "Allowances", "Approval process", "Exceptions", "Reporting",
               "Records and retention", "Contacts", "Changes in this version", "Definitions", "Enforcement"],
    "guide": ["Overview", "Plans and limits", "Installation", "Configuration", "Troubleshooting", "Known issues",
              "Release history", "Support", "Integrations", "Data export", "Security", "Pricing"],
    "report": ["Summary", "Revenue", "Headcount", "Regional results", "Customer metrics", "Risks", "Outlook",
               "Costs", "Hiring", "Product milestones", "Appendix", "Methodology"],
    "runbook": ["When to use this runbook", "Alerts", "Diagnosis", "Mitigation", "Escalation", "Recovery checks",
                "Post-incident review", "Dependencies", "Capacity", "Dashboards", "Contacts", "History"],
    "minutes": ["Attendees", "Decisions", "Action items", "Budget", "Timeline", "Open questions", "Next meeting",
                "Risks raised", "Hiring update", "Customer escalations", "Vendor review", "Any other business"],
}
TABLES = [
    (["Region", "Headcount", "Budget", "Change"],
     lambda r: [r.choice(CITIES), str(r.randint(4, 900)), _money(r), f"{r.uniform(-20, 40):+.1f}%"]),
    (["Plan", "Monthly price", "Storage", "Seats"],
     lambda r: [r.choice(PLANS), _money(r, high=400), f"{r.choice([2, 10, 50, 250])} GB", str(r.randint(1, 500))]),
    (["Metric", "Q1", "Q2", "Q3", "Q4"],
     lambda r: [r.choice(METRICS).capitalize(), *(str(r.randint(10, 9999)) for _ in range(4))]),
    (["Owner", "Task", "Due date", "Status"],
     lambda r: [_person(r), f"Review {r.choice(COMPONENTS)} {r.choice(['limits', 'costs', 'alerts', 'contracts'])}",
                _date(r), r.choice(STATUSES)]),
]


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _money(rng: random.Random, high: int = 90_000) -> str:
    return f"${rng.randint(5, high):,}"


def _date(rng: random.Random) -> str:
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2018, 2026)
    style = rng.randrange(3)  # documents mix date formats, and the checker must read all of them
    if style == 0:
        return f"{MONTHS[month - 1]} {day}, {year}"
    if style == 1:
        return f"{day} {MONTHS[month - 1]} {year}"
    return f"{year}-{month:02d}-{day:02d}"


def _sentence(rng: random.Random) -> str:
    values = {
        "person": _person(rng), "person2": _person(rng), "team": rng.choice(TEAMS), "city": rng.choice(CITIES),
        "product": rng.choice(PRODUCTS), "component": rng.choice(COMPONENTS), "metric": rng.choice(METRICS),
        "unit": rng.choice(UNITS), "expense": rng.choice(EXPENSES), "period": rng.choice(PERIODS),
        "direction": rng.choice(DIRECTIONS), "role": rng.choice(ROLES), "plan": rng.choice(PLANS),
        "date": _date(rng), "money": _money(rng), "money2": _money(rng), "number": f"{rng.randint(12, 48_000):,}",
        "pct": f"{rng.uniform(0.5, 45):.1f}", "small": str(rng.randint(2, 30)), "small2": str(rng.randint(2, 36)),
        "quarter": str(rng.randint(1, 4)), "year": str(rng.randint(2018, 2026)),
    }
    text = rng.choice(SENTENCES).format(**values)
    return text[0].upper() + text[1:]


def _paragraph(rng: random.Random) -> str:
    return textwrap.fill(" ".join(_sentence(rng) for _ in range(rng.randint(2, 6))), width=88)


def _bullet_list(rng: random.Random) -> str:
    return "\n".join(f"- {_sentence(rng)}" for _ in range(rng.randint(3, 6)))


def _table(rng: random.Random) -> str:
    header, row = rng.choice(TABLES)
    lines = [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}"]
    lines += [f"| {' | '.join(row(rng))} |" for _ in range(rng.randint(3, 7))]
    return "\n".join(lines)


def _section_body(rng: random.Random) -> list[str]:
    makers: list[Callable[[random.Random], str]] = [_paragraph] * 6 + [_bullet_list] * 3 + [_table] * 2
    return [_paragraph(rng)] + [rng.choice(makers)(rng) for _ in range(rng.randint(0, 2))]


def _title(rng: random.Random, kind: str) -> str:
    subject = rng.choice([rng.choice(PRODUCTS), f"{rng.choice(TEAMS)} team", f"{rng.choice(CITIES)} office"])
    policy = rng.choice(["Travel", "Expense", "Remote work", "Purchasing", "Data retention"])
    return {
        "policy": f"{policy} policy: {subject}",
        "guide": f"{subject} guide",
        "report": f"Q{rng.randint(1, 4)} {rng.randint(2019, 2026)} report: {subject}",
        "runbook": f"Runbook: {rng.choice(COMPONENTS)} incidents at {subject}",
        "minutes": f"Meeting notes: {subject}, {_date(rng)}",
    }[kind]


@dataclass(frozen=True)
class SyntheticDocument:
    key: str
    title: str
    security_level: str
    markdown: str


def synthetic_document(rng: random.Random, number: int) -> SyntheticDocument:
    kind = rng.choice(list(SECTION_TITLES))
    title = _title(rng, kind)
    parts = [f"# {title}", _paragraph(rng)]
    for heading in rng.sample(SECTION_TITLES[kind], rng.randint(4, 10)):
        parts.append(f"## {heading}")
        parts += _section_body(rng)
        if rng.random() < 0.25:  # some sections have a regional subsection: deeper heading paths
            parts += [f"### {rng.choice(CITIES)}", *_section_body(rng)]
    # Mostly readable by an internal client, as in a real KB; a few documents are above its clearance.
    level = rng.choices(["public", "internal", "confidential", "restricted"], weights=[30, 50, 15, 5])[0]
    return SyntheticDocument(key=f"{CORPUS_KEY_PREFIX}{number:05d}", title=title[:200], security_level=level,
                             markdown="\n\n".join(parts) + "\n")


def synthetic_corpus(*, seed: int, count: int) -> list[SyntheticDocument]:
    rng = random.Random(seed)
    return [synthetic_document(rng, number) for number in range(count)]
