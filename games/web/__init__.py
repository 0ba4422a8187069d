"""The site's pages: views, forms and URLs of the game, seat, player and archive pages, and the
middleware and error pages around them.
"""
