"""What the mail app keeps for a player and a seat, which the site reads too: mail settings, reply
addresses, the service's command words and the redaction of credentials.
"""
