"""Die Verbotene Stadt (Alex Randolph and Johann Rüttinger, Ravensburger 1992) as a rules module
(seed 003).  Under construction: see RULES.md beside this file once it exists."""
