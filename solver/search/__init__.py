"""The double-dummy search: the Cython core (``_search``, ``_lone``), its Python face
(:mod:`bideuchre.search.solve`) and the plain reference solver it is checked against
(:mod:`bideuchre.search.reference`)."""
