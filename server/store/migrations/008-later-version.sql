-- What a later version of the contract may serve, on demand (D93): a simulation may give the
-- orders it takes in a delivery window, a member the contract does not list yet, and hold
-- some of its trips in a trip status the contract does not list.
ALTER TABLE simulations ADD COLUMN unknown_members INTEGER NOT NULL DEFAULT 0;
ALTER TABLE simulations ADD COLUMN unknown_trip_statuses INTEGER NOT NULL DEFAULT 0;
-- The order's `deliveryWindow` as its JSON text; null for every order no such simulation took in.
ALTER TABLE orders ADD COLUMN delivery_window TEXT;
