"""The built-in checker's rules, in the order they run (and list their contradictions among the reasons).

A rule takes a ``RuleContext`` and returns findings. Adding one: write the function in ``rules/``, add it
here; ``scoring.SCORE_TABLE`` says what its finding kind does to the score.
"""

from __future__ import annotations

from collections.abc import Callable

from checking.findings import Finding
from checking.rules.additions import check_additions
from checking.rules.antonyms import check_antonyms
from checking.rules.comparisons import check_comparisons
from checking.rules.context import RuleContext
from checking.rules.direction import check_directions
from checking.rules.exchange import check_exchanges
from checking.rules.entities import check_entities, check_name_roles, check_pairings
from checking.rules.negation import check_negation
from checking.rules.quantities import check_quantities
from checking.rules.rows import check_table_rows
from checking.rules.subject import check_subject
from checking.rules.wording import check_wording

Rule = Callable[[RuleContext], list[Finding]]

RULES: tuple[Rule, ...] = (
    check_quantities,
    check_directions,
    check_comparisons,
    check_negation,
    check_antonyms,
    check_entities,
    check_pairings,
    check_name_roles,
    check_exchanges,
    check_wording,
    check_additions,
    check_subject,
    check_table_rows,
)
