-- The sign-in screen's 'Check if account exists' (docs/product.md, Screens; The JSON API): one
-- yes/no answer about an address. Emails live only in auth.users, which no API
-- role may read, so this narrow function answers for the app server alone
-- (service role), which rate-limits it per visitor.
create function public.email_is_registered(address text) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from auth.users u
     where lower(u.email) = lower(btrim(address)) and u.deleted_at is null
  )
$$;

revoke execute on function public.email_is_registered(text) from public, anon, authenticated;
grant execute on function public.email_is_registered(text) to service_role;

comment on function public.email_is_registered(text) is
  'Whether an account exists for an email address. Service role only: the app server asks it for the sign-in screen, rate-limited per visitor.';
