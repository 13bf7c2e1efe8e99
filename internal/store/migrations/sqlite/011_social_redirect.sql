-- Social login in redirect mode (a Telegram mini-app, where no popup opens):
-- the page the provider's callback sends the visitor back to, with the
-- result in its result_uri parameter. '' for a popup login.
ALTER TABLE social_flows ADD COLUMN return_url TEXT NOT NULL DEFAULT '';
