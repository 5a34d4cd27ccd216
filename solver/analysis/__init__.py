"""Analyses over the search: lone hands and their exchanges (:mod:`.lone`), every card's value
and the principal variation (:mod:`.explain`), the auction (:mod:`.auction`) and par
(:mod:`.par`), bid advice from one hand (:mod:`.advice`); conditions on hands, the small
language of ``batch --where`` and ``--by`` (:mod:`.conditions`)."""
