-- A browser session acts with the identity its sign-in proved: whether the provider verified the address decides
-- org creation by owner emails and invitation acceptance, so the session keeps it rather than assuming either way.
ALTER TABLE signin_sessions ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
