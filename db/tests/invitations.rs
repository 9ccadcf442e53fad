//! Staff invitations against a real PostgreSQL: a link gives its role once and is then
//! refused; an expired or revoked link gives nothing; a head judge invites judges but not
//! organisers; a link is worth no more than its maker's present role.

mod support;

use chrono::{Duration, Utc};
use db::{
    PgPool, invitations,
    roles::{self, Role},
    tokens::{self, NewToken, Refusal, TokenError},
};
use support::*;

fn in_a_day() -> chrono::DateTime<Utc> {
    Utc::now() + Duration::days(1)
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_invitation_gives_its_role_once_then_is_refused(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let sam = user(&pool, "sam", false).await;
    let kim = user(&pool, "kim", false).await;
    let issued = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::staff_invite("Sam", Role::Judge, in_a_day()),
    )
    .await
    .expect("made");
    let secret = issued.secret.expose().to_owned();

    let seen = invitations::inspect(&pool, &secret).await.expect("offered");
    assert_eq!(seen.role, Role::Judge);
    assert_eq!(seen.event_name, "Test Qualifier");
    assert_eq!(
        seen.token.used_count, 0,
        "looking at a link does not spend it"
    );

    let accepted = invitations::accept(&pool, &sam, &secret)
        .await
        .expect("taken");
    assert_eq!(accepted.role, Role::Judge);
    assert_eq!(accepted.event_slug, event.slug);
    assert_eq!(
        roles::role_of(&pool, sam.user_id, event.id).await.unwrap(),
        Some(Role::Judge)
    );

    assert!(matches!(
        invitations::accept(&pool, &kim, &secret).await,
        Err(Refusal::Spent { .. })
    ));
    assert!(matches!(
        invitations::inspect(&pool, &secret).await,
        Err(Refusal::Spent { .. })
    ));
    assert_eq!(
        roles::role_of(&pool, kim.user_id, event.id).await.unwrap(),
        None,
        "a spent link gives nothing"
    );
    let actions = audit_actions(&pool, event.id).await;
    assert!(actions.contains(&"role_granted".to_owned()));
    assert!(actions.contains(&"token_used".to_owned()));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_expired_or_revoked_invitation_gives_nothing(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let sam = user(&pool, "sam", false).await;
    let expired = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::staff_invite("late", Role::Judge, Utc::now() - Duration::minutes(1)),
    )
    .await
    .expect("made");
    let refused = invitations::accept(&pool, &sam, expired.secret.expose())
        .await
        .expect_err("expired");
    assert!(matches!(refused, Refusal::Expired { .. }));
    assert!(refused.to_string().contains("has expired"), "{refused}");

    let revoked = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::staff_invite("withdrawn", Role::HeadJudge, in_a_day()),
    )
    .await
    .expect("made");
    tokens::revoke(&pool, &admin, event.id, revoked.token.id)
        .await
        .expect("revoked");
    let refused = invitations::accept(&pool, &sam, revoked.secret.expose())
        .await
        .expect_err("revoked");
    assert!(matches!(refused, Refusal::Revoked { .. }));
    assert!(refused.to_string().contains("was revoked"), "{refused}");
    assert_eq!(
        roles::role_of(&pool, sam.user_id, event.id).await.unwrap(),
        None
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_head_judge_invites_judges_not_organisers_and_her_links_end_with_her_role(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let head = user(&pool, "head", false).await;
    let judge = user(&pool, "judge", false).await;
    let sam = user(&pool, "sam", false).await;
    roles::grant(&pool, &admin, event.id, "head", Role::HeadJudge)
        .await
        .expect("granted");
    roles::grant(&pool, &admin, event.id, "judge", Role::Judge)
        .await
        .expect("granted");
    assert!(matches!(
        tokens::issue(
            &pool,
            &judge,
            event.id,
            NewToken::staff_invite("x", Role::Judge, in_a_day())
        )
        .await,
        Err(TokenError::Access(_))
    ));
    assert!(matches!(
        tokens::issue(
            &pool,
            &head,
            event.id,
            NewToken::staff_invite("x", Role::Organiser, in_a_day())
        )
        .await,
        Err(TokenError::Access(_))
    ));
    let issued = tokens::issue(
        &pool,
        &head,
        event.id,
        NewToken::staff_invite("Sam", Role::Judge, in_a_day()),
    )
    .await
    .expect("a head judge invites a judge");
    roles::revoke(&pool, &admin, event.id, head.user_id)
        .await
        .expect("removed");
    assert!(matches!(
        invitations::accept(&pool, &sam, issued.secret.expose()).await,
        Err(Refusal::MakerLacksRole { .. })
    ));
    assert_eq!(
        roles::role_of(&pool, sam.user_id, event.id).await.unwrap(),
        None
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_invitation_never_lowers_a_role_held(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let org = user(&pool, "org", false).await;
    roles::grant(&pool, &admin, event.id, "org", Role::Organiser)
        .await
        .expect("granted");
    let issued = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::staff_invite("judge", Role::Judge, in_a_day()),
    )
    .await
    .expect("made");
    let accepted = invitations::accept(&pool, &org, issued.secret.expose())
        .await
        .expect("taken");
    assert_eq!(accepted.role, Role::Organiser);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_claim_code_ties_the_right_player_to_her_account_once(pool: PgPool) {
    use db::claims::{self, ClaimError};
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 3).await;
    let hanna = user(&pool, "hanna", false).await;
    let kim = user(&pool, "kim", false).await;
    let issued = claims::issue(&pool, &admin, event.id, ids[1], in_a_day())
        .await
        .expect("made");
    let code = issued.secret.expose().to_owned();
    assert_eq!(code.len(), 14, "short enough to type: {code}");
    assert_eq!(
        claims::player_of(&pool, &hanna, event.id).await.unwrap(),
        None
    );

    // Typed on a phone: lower case, spaces for dashes.
    let typed = code.to_lowercase().replace('-', " ");
    let claimed = claims::claim(&pool, &hanna, &typed).await.expect("claimed");
    assert_eq!(claimed.player_id, ids[1]);
    assert_eq!(claimed.player_name, player_name(2));
    assert_eq!(
        claims::player_of(&pool, &hanna, event.id).await.unwrap(),
        Some(ids[1])
    );
    assert_eq!(
        roles::role_of(&pool, hanna.user_id, event.id)
            .await
            .unwrap(),
        Some(Role::Player)
    );
    let linked: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT id, user_id FROM players WHERE event_id = $1 ORDER BY id")
            .bind(event.id)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        linked.iter().filter(|(_, u)| u.is_some()).count(),
        1,
        "only her registration is tied"
    );

    assert!(matches!(
        claims::claim(&pool, &kim, &code).await,
        Err(ClaimError::Refused(Refusal::Spent { .. }))
    ));
    assert_eq!(
        claims::player_of(&pool, &kim, event.id).await.unwrap(),
        None
    );

    // A second code for a player already tied to someone else gives nothing to another account.
    let again = claims::issue(&pool, &admin, event.id, ids[1], in_a_day())
        .await
        .expect("made");
    assert!(matches!(
        claims::claim(&pool, &kim, again.secret.expose()).await,
        Err(ClaimError::AlreadyClaimed(_))
    ));
    // And one account plays one seat.
    let other = claims::issue(&pool, &admin, event.id, ids[2], in_a_day())
        .await
        .expect("made");
    assert!(matches!(
        claims::claim(&pool, &hanna, other.secret.expose()).await,
        Err(ClaimError::AccountTaken(_))
    ));
    // A judge may not make codes; a head judge may.
    let judge = user(&pool, "judge", false).await;
    roles::grant(&pool, &admin, event.id, "judge", Role::Judge)
        .await
        .unwrap();
    assert!(matches!(
        claims::issue(&pool, &judge, event.id, ids[0], in_a_day()).await,
        Err(TokenError::Access(_))
    ));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn printed_slips_get_codes_for_unclaimed_players_only_and_each_is_audited(pool: PgPool) {
    use db::claims;
    let (admin, event) = event(&pool).await;
    let ids = players(&pool, &admin, event.id, 4).await;
    let hanna = user(&pool, "hanna", false).await;
    let first = claims::issue(&pool, &admin, event.id, ids[0], in_a_day())
        .await
        .expect("made");
    claims::claim(&pool, &hanna, first.secret.expose())
        .await
        .expect("claimed");
    let before = audit_actions(&pool, event.id).await.len();

    // Hanna has claimed hers: the other three get one code each, in one go.
    let printed = claims::issue_for_slips(&pool, &admin, event.id, &ids, in_a_day())
        .await
        .expect("made");
    let for_whom: Vec<_> = printed.iter().map(|c| c.player_id).collect();
    assert_eq!(for_whom, ids[1..].to_vec());
    let after = audit_actions(&pool, event.id).await;
    assert_eq!(after.len(), before + 3, "{after:?}");

    // Printed again: new codes, and the first print's still work.
    let again = claims::issue_for_slips(&pool, &admin, event.id, &ids[1..2], in_a_day())
        .await
        .expect("made");
    assert_eq!(again.len(), 1);
    assert_ne!(again[0].secret.expose(), printed[0].secret.expose());
    let kim = user(&pool, "kim", false).await;
    let claimed = claims::claim(&pool, &kim, printed[0].secret.expose())
        .await
        .expect("the earlier print's code works");
    assert_eq!(claimed.player_id, ids[1]);

    // Only those who run the event print codes; players of other events are never given one.
    let judge = user(&pool, "judge", false).await;
    roles::grant(&pool, &admin, event.id, "judge", Role::Judge)
        .await
        .unwrap();
    assert!(matches!(
        claims::issue_for_slips(&pool, &judge, event.id, &ids, in_a_day()).await,
        Err(TokenError::Access(_))
    ));
    let stranger = tournament::ids::PlayerId(ids[3].0 + 1000);
    let none = claims::issue_for_slips(&pool, &admin, event.id, &[stranger], in_a_day())
        .await
        .expect("nothing to make");
    assert!(none.is_empty());
}
