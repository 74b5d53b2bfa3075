-- Demo accounts for local development: loaded by `npm start` (embedded mode),
-- `npm run db:seed`, and `supabase db reset` on a Supabase project.
-- Idempotent: accounts that exist already are left as they are.
-- Every demo account's password is Lumen-demo-2026 (listed in the README).

begin;

create temporary table demo_account (id uuid primary key, email text not null, metadata jsonb not null) on commit drop;

insert into demo_account (id, email, metadata) values
  ('de300000-0000-4000-8000-000000000001', 'admin@lumen.test',
    '{"username":"ada.admin","bio":"I keep Lumen tidy: reviewing creators, reports and your feedback.","field_of_interest":"Humanities"}'),
  ('de300000-0000-4000-8000-000000000002', 'creator@lumen.test',
    '{"username":"maya.creates","role":"creator","bio":"Physicist and science communicator. Big ideas, small clips.","field_of_interest":"Physics","concentration":"Data Science","creator_categories":["natural-sciences-physics","applied-sciences-space-science-astronomy","technology-innovation"]}'),
  ('de300000-0000-4000-8000-000000000003', 'newcreator@lumen.test',
    '{"username":"noah.new","role":"creator","bio":"Chef teaching the chemistry of cooking.","field_of_interest":"Chemistry","concentration":"Web Development","creator_categories":["natural-sciences-chemistry","applied-sciences-agricultural-food-sciences"]}'),
  ('de300000-0000-4000-8000-000000000004', 'learner@lumen.test',
    '{"username":"leo.learns","field_of_interest":"Computer Science","interests":["Physics","Cooking"]}');

-- Only the accounts that are missing; the auth trigger creates their profiles,
-- creator categories (pending) and creator applications.
create temporary table new_demo_account on commit drop as
  select d.* from demo_account d
   where not exists (select 1 from auth.users u where u.id = d.id or lower(u.email) = d.email);

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
select '00000000-0000-0000-0000-000000000000', n.id, 'authenticated', 'authenticated', n.email,
       extensions.crypt('Lumen-demo-2026', extensions.gen_salt('bf', 10)), now(),
       '{"provider":"email","providers":["email"]}',
       n.metadata || jsonb_build_object('sub', n.id, 'email', n.email, 'email_verified', true, 'phone_verified', false),
       now(), now(), '', '', '', ''
  from new_demo_account n;

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select gen_random_uuid(), n.id::text, n.id,
       jsonb_build_object('sub', n.id, 'email', n.email, 'email_verified', true, 'phone_verified', false),
       'email', now(), now(), now()
  from new_demo_account n;

-- Ada is the admin. Roles are never taken from sign-up metadata, so it is set here.
update public.profiles p set role = 'admin', is_verified = true
  from new_demo_account n
 where p.id = n.id and n.email = 'admin@lumen.test';

-- Maya's application was reviewed and approved by Ada, as the admin screen does.
update public.creator_applications a
   set status = 'approved', reviewed_by = 'de300000-0000-4000-8000-000000000001', reviewed_at = now(),
       review_notes = 'Clear, accurate and engaging demo lessons. Welcome aboard!'
  from new_demo_account n
 where a.creator_id = n.id and n.email = 'creator@lumen.test' and a.status = 'pending';
update public.profiles p set is_verified = true
  from new_demo_account n
 where p.id = n.id and n.email = 'creator@lumen.test';
update public.creator_categories c set status = 'approved'
  from new_demo_account n
 where c.creator_id = n.id and n.email = 'creator@lumen.test';

commit;
