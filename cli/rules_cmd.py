"""``bideuchre rules``: the presets' table options and their values (RULES.md §2).

Thin over :meth:`bideuchre.rules.Preset.table_options`; the options are changed on every
command that plays or scores with ``--rule KEY=VALUE`` (cli/common.py).
"""

from __future__ import annotations

from typing import List, Optional

import typer

from .common import guard, out, print_json
from .options import preset_with_rules, rule_option
from .views import simple_table


def _summary(p) -> str:
    """One line of what the preset is: deck, strains, bids, game end."""
    bids = f"{p.min_bid}..{p.top_bid}"
    lone = " ".join(b.name for b in p.lone_bids) or "none"
    end = f"to {p.target}" if p.target is not None else f"over {p.hands} hands"
    return (f"seed {p.rule_text} · deck {p.deck.name} ({p.tricks} tricks) · strains "
            f"{' '.join(s.name for s in p.strains)} · number bids {bids} · lone bids {lone} · "
            f"game {end}")


def _value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def rules_cmd(
    preset: Optional[str] = typer.Argument(None, help="A preset (standard pepper double32 racehorse double48); default: all five."),
    rule: List[str] = rule_option(),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The presets' table options: each option's value and the values it allows (RULES.md §2).
    Change one on any command that plays or scores with --rule KEY=VALUE."""
    from bideuchre.rules import PRESETS, RulesError

    with guard():
        if rule and preset is None:
            raise RulesError("--rule needs a PRESET (the options differ between presets)")
        presets = [preset_with_rules(preset, rule)] if preset is not None else list(PRESETS.values())
        if json_out:
            print_json({"presets": {p.name: {
                "options": p.options(), **({"rules": p.changed_options()} if p.changed_options() else {}),
                "allowed": {o.key: o.allowed for o in p.table_options()}} for p in presets}})
            return
        for i, p in enumerate(presets):
            if i:
                out.print()
            out.print(f"[bold]{p.name}[/bold] · {_summary(p)}", highlight=False)
            tab = simple_table()
            for col in ("option", "value", "allowed", "what it changes"):
                tab.add_column(col, style="bold cyan" if col == "option" else None,
                               no_wrap=col != "what it changes")
            changed = p.changed_options()
            for o in p.table_options():
                tab.add_row(o.key, _value(o.value) + (" *" if o.key in changed else ""), o.allowed, o.meaning)
            out.print(tab)
        out.print("change one with --rule KEY=VALUE (repeatable) on solve, par, bid, explain, "
                  "replay, play, match, board and batch" + ("; * differs from the preset" if any(
                      p.changed_options() for p in presets) else ""), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` command to the app."""
    app.command("rules", short_help="The presets' table options and their values: what --rule "
                "KEY=VALUE can change (RULES.md §2).")(rules_cmd)
