//! Tokens against a real PostgreSQL: made by organisers only, stored as a fingerprint, each use
//! counted and audited, refused once revoked, expired, spent or of another kind, and never
//! worth more than their maker's present role. Invitations and claims (issue 18) use the same
//! rows: their one-use rule is checked here too.

mod support;

use chrono::{Duration, Utc};
use db::{
    PgPool,
    roles::{self, Action, Role},
    tokens::{self, Grant, NewToken, Refusal, TokenError, TokenKind, Uses},
};
use support::*;

fn purpose() -> tokens::Use<'static> {
    tokens::Use {
        purpose: "GET /api/v1/events/test-qualifier",
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_token_is_shown_once_stored_as_a_fingerprint_and_each_use_audited(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let issued = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::api("results bot", Role::HeadJudge, None),
    )
    .await
    .expect("made");
    let secret = issued.secret.expose().to_owned();
    assert!(secret.starts_with("mentat_"));
    assert!(secret.starts_with(issued.token.hint.trim_end_matches('…')));
    // Nothing stored is the secret.
    let stored: Vec<(Vec<u8>, String, String)> =
        sqlx::query_as("SELECT secret_sha256, hint, label FROM tokens")
            .fetch_all(&pool)
            .await
            .expect("rows");
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0].0, secret.as_bytes());
    assert!(
        !stored[0].1.contains(&secret[12..]),
        "the hint is a prefix only"
    );

    for _ in 0..2 {
        let redeemed = tokens::redeem(&pool, TokenKind::Api, &secret, purpose())
            .await
            .expect("accepted");
        assert_eq!(redeemed.token.id, issued.token.id);
        assert_eq!(redeemed.actor.user_id, admin.user_id);
        assert_eq!(redeemed.actor.username, "admin (API token \"results bot\")");
        assert!(redeemed.allows(Action::RunEvent));
        assert!(
            !redeemed.allows(Action::ManageStaff),
            "a head judge's token"
        );
    }
    let listed = tokens::list(&pool, event.id, TokenKind::Api)
        .await
        .expect("listed");
    assert_eq!(listed[0].used_count, 2);
    assert!(listed[0].last_used_at.is_some());
    let actions = audit_actions(&pool, event.id).await;
    assert_eq!(
        actions
            .iter()
            .filter(|a| a.as_str() == "token_used")
            .count(),
        2
    );
    assert!(actions.contains(&"token_created".to_owned()));

    let revoked = tokens::revoke(&pool, &admin, event.id, issued.token.id)
        .await
        .expect("revoked");
    assert_eq!(revoked.revoked_by.as_deref(), Some("admin"));
    assert!(matches!(
        tokens::redeem(&pool, TokenKind::Api, &secret, purpose()).await,
        Err(Refusal::Revoked { .. })
    ));
    assert!(matches!(
        tokens::redeem(&pool, TokenKind::Api, "mentat_nothing", purpose()).await,
        Err(Refusal::Unknown)
    ));
    assert_eq!(
        tokens::list(&pool, event.id, TokenKind::Api)
            .await
            .expect("listed")[0]
            .used_count,
        2,
        "refused uses are not counted"
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn only_organisers_make_tokens_and_a_token_never_outranks_its_maker(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let org = user(&pool, "org", false).await;
    let judge = user(&pool, "judge", false).await;
    roles::grant(&pool, &admin, event.id, "org", Role::Organiser)
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
            NewToken::api("mine", Role::Judge, None)
        )
        .await,
        Err(TokenError::Access(_))
    ));
    assert!(matches!(
        tokens::issue(
            &pool,
            &org,
            event.id,
            NewToken::api("x", Role::Player, None)
        )
        .await,
        Err(TokenError::BadRole)
    ));
    let issued = tokens::issue(
        &pool,
        &org,
        event.id,
        NewToken::api("org bot", Role::Organiser, None),
    )
    .await
    .expect("made");
    let secret = issued.secret.expose().to_owned();
    let redeemed = tokens::redeem(&pool, TokenKind::Api, &secret, purpose())
        .await
        .expect("accepted");
    assert!(redeemed.allows(Action::ViewAudit));
    // The maker becomes a judge: the token keeps only what a judge may do.
    roles::grant(&pool, &admin, event.id, "org", Role::Judge)
        .await
        .expect("demoted");
    let redeemed = tokens::redeem(&pool, TokenKind::Api, &secret, purpose())
        .await
        .expect("accepted");
    assert!(redeemed.allows(Action::RecordResults));
    assert!(!redeemed.allows(Action::RunEvent));
    assert!(!redeemed.allows(Action::ViewAudit));
    // Without any role the token allows nothing but what anyone may.
    let org_id = org.user_id;
    roles::revoke(&pool, &admin, event.id, org_id)
        .await
        .expect("removed");
    let redeemed = tokens::redeem(&pool, TokenKind::Api, &secret, purpose())
        .await
        .expect("accepted");
    assert!(!redeemed.allows(Action::RecordResults));
    assert!(redeemed.allows(Action::ViewPublic));
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn expired_spent_and_other_kinds_of_token_are_refused(pool: PgPool) {
    let (admin, event) = event(&pool).await;
    let past = Some(Utc::now() - Duration::hours(1));
    let expired = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken::api("old", Role::Judge, past),
    )
    .await
    .expect("made");
    assert!(matches!(
        tokens::redeem(&pool, TokenKind::Api, expired.secret.expose(), purpose()).await,
        Err(Refusal::Expired { .. })
    ));
    // A staff invitation: one use, with an expiry (issue 18 hands these out).
    let invite = tokens::issue(
        &pool,
        &admin,
        event.id,
        NewToken {
            kind: TokenKind::StaffInvite,
            label: "for Sam".into(),
            grant: Grant::Role(Role::Judge),
            uses: Uses::Once,
            expires_at: Some(Utc::now() + Duration::days(2)),
        },
    )
    .await
    .expect("made");
    let secret = invite.secret.expose().to_owned();
    assert!(matches!(
        tokens::redeem(&pool, TokenKind::Api, &secret, purpose()).await,
        Err(Refusal::WrongKind(TokenKind::Api))
    ));
    // Two people opening the link at once: exactly one gets it.
    let (a, b) = tokio::join!(
        tokens::redeem(&pool, TokenKind::StaffInvite, &secret, purpose()),
        tokens::redeem(&pool, TokenKind::StaffInvite, &secret, purpose()),
    );
    assert_eq!(
        [a.is_ok(), b.is_ok()].iter().filter(|ok| **ok).count(),
        1,
        "{a:?} {b:?}"
    );
    assert!(matches!(a.err().or(b.err()), Some(Refusal::Spent { .. })));
    let listed = tokens::list(&pool, event.id, TokenKind::StaffInvite)
        .await
        .expect("listed");
    assert_eq!(listed[0].used_count, 1);
    assert_eq!(listed[0].standing(Utc::now()), tokens::Standing::Spent);
    // The schema holds the same rules: a reusable invitation cannot be stored.
    let stored = sqlx::query(
        "INSERT INTO tokens (kind, event_id, label, role, secret_sha256, hint, single_use) \
         VALUES ('staff_invite', $1, 'x', 'judge', decode(repeat('ab', 32), 'hex'), 'x', false)",
    )
    .bind(event.id)
    .execute(&pool)
    .await;
    assert!(stored.is_err(), "tokens_once");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn an_account_token_is_stored_reusable_and_stops_when_revoked(pool: PgPool) {
    let chair = user(&pool, "chair", true).await;
    let issued = tokens::issue_account(&pool, &chair, "season script", None)
        .await
        .expect("an account token is made (reusable, no expiry)");
    let secret = issued.secret.expose().to_owned();
    for _ in 0..2 {
        let redeemed = tokens::redeem(&pool, TokenKind::Api, &secret, purpose())
            .await
            .expect("accepted again and again");
        assert_eq!(redeemed.token.kind, TokenKind::Account);
        assert_eq!(redeemed.actor.user_id, chair.user_id);
    }
    tokens::revoke_account(&pool, &chair, issued.token.id)
        .await
        .expect("revoked");
    assert!(matches!(
        tokens::redeem(&pool, TokenKind::Api, &secret, purpose()).await,
        Err(Refusal::Revoked { .. })
    ));
}
