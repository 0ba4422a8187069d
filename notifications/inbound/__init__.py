"""Mail in: how it arrives (pipe, SMTP, webhooks), is read (parsing, quotes, prose) and routed to a
seat's commands, a player's account, a game's ready window or a registered handler.
"""
