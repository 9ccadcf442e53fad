//! Accounts, sign-in back-off, roles and the audit log against a real PostgreSQL
//! (a fresh database per test).

use db::{
    PgPool,
    accounts::{self, ChangePasswordError, CreateUserError, NewUser, SignInError, UserName},
    password::Password,
    roles::{self, AccessError, Action, Actor, Role},
    throttle,
};

async fn user(pool: &PgPool, name: &str, admin: bool) -> Actor {
    let new = NewUser {
        username: UserName::parse(name).expect("valid name"),
        email: Some(format!("{name}@example.org")),
        password: Password::new_choice(format!("{name}-password")).expect("long enough"),
        is_admin: admin,
    };
    let user_id = accounts::create_user(pool, new, None)
        .await
        .expect("created");
    Actor {
        user_id,
        username: name.to_owned(),
        is_admin: admin,
    }
}

fn pw(text: &str) -> Password {
    Password::new(text)
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn sign_in_by_name_or_email_in_any_case(pool: PgPool) {
    let alice = user(&pool, "alice", false).await;
    let by_name = accounts::sign_in(&pool, "ALICE", pw("alice-password"), "10.0.0.1")
        .await
        .expect("by name");
    assert_eq!(by_name, alice);
    let by_email = accounts::sign_in(
        &pool,
        " Alice@Example.org ",
        pw("alice-password"),
        "10.0.0.1",
    )
    .await
    .expect("by email");
    assert_eq!(by_email.user_id, alice.user_id);
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn wrong_password_and_unknown_account_get_the_same_answer(pool: PgPool) {
    user(&pool, "alice", false).await;
    let wrong = accounts::sign_in(&pool, "alice", pw("nope-nope-nope"), "10.0.0.1").await;
    let unknown = accounts::sign_in(&pool, "mallory", pw("alice-password"), "10.0.0.2").await;
    let (Err(a), Err(b)) = (wrong, unknown) else {
        panic!("both must fail")
    };
    assert!(matches!(a, SignInError::Invalid));
    assert_eq!(a.to_string(), b.to_string());
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn five_failures_block_the_account_even_with_the_right_password(pool: PgPool) {
    user(&pool, "alice", false).await;
    for i in 0..throttle::MAX_FAILURES {
        // From different addresses, so only the account's count reaches the limit.
        let r = accounts::sign_in(
            &pool,
            "alice",
            pw("guess-guess-guess"),
            &format!("10.0.1.{i}"),
        )
        .await;
        assert!(matches!(r, Err(SignInError::Invalid)), "attempt {i}");
    }
    let blocked = accounts::sign_in(&pool, "alice", pw("alice-password"), "10.0.2.1").await;
    let Err(e @ SignInError::Blocked { .. }) = blocked else {
        panic!("expected a block, got {blocked:?}")
    };
    assert!(e.to_string().contains("Too many failed sign-ins"), "{e}");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn many_failures_from_one_address_block_that_address(pool: PgPool) {
    user(&pool, "alice", false).await;
    user(&pool, "bob", false).await;
    // A hall full of players behind one address: a few typos must not lock anyone out…
    for i in 0..throttle::MAX_FAILURES {
        let _ = accounts::sign_in(
            &pool,
            &format!("typo{i}"),
            pw("whatever-whatever"),
            "192.0.2.7",
        )
        .await;
    }
    assert!(
        accounts::sign_in(&pool, "alice", pw("alice-password"), "192.0.2.7")
            .await
            .is_ok()
    );
    // …but guessing across many accounts from one address is stopped.
    for i in throttle::MAX_FAILURES..throttle::MAX_FAILURES_PER_ADDRESS {
        let _ = accounts::sign_in(
            &pool,
            &format!("x{i}"),
            pw("whatever-whatever"),
            "192.0.2.7",
        )
        .await;
    }
    let from_attacker = accounts::sign_in(&pool, "bob", pw("bob-password"), "192.0.2.7").await;
    assert!(matches!(from_attacker, Err(SignInError::Blocked { .. })));
    let from_elsewhere = accounts::sign_in(&pool, "bob", pw("bob-password"), "192.0.2.8").await;
    assert!(from_elsewhere.is_ok(), "another address is not blocked");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_success_forgives_earlier_failures_of_the_account(pool: PgPool) {
    user(&pool, "alice", false).await;
    for _ in 0..4 {
        let _ = accounts::sign_in(&pool, "alice", pw("guess-guess-guess"), "10.0.0.1").await;
    }
    accounts::sign_in(&pool, "alice", pw("alice-password"), "10.0.0.9")
        .await
        .expect("fifth try right");
    for _ in 0..4 {
        let _ = accounts::sign_in(&pool, "alice", pw("guess-guess-guess"), "10.0.0.3").await;
    }
    accounts::sign_in(&pool, "alice", pw("alice-password"), "10.0.0.10")
        .await
        .expect("count started over");
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn user_names_and_emails_are_unique_without_regard_to_case(pool: PgPool) {
    user(&pool, "alice", false).await;
    let again = NewUser {
        username: UserName::parse("Alice").expect("valid"),
        email: None,
        password: Password::new_choice("another-password").expect("ok"),
        is_admin: false,
    };
    let err = accounts::create_user(&pool, again, None)
        .await
        .expect_err("taken");
    assert!(matches!(err, CreateUserError::UsernameTaken(_)));
    assert_eq!(err.field(), Some("username"));
    let same_email = NewUser {
        username: UserName::parse("alice2").expect("valid"),
        email: Some("ALICE@example.org".into()),
        password: Password::new_choice("another-password").expect("ok"),
        is_admin: false,
    };
    let err = accounts::create_user(&pool, same_email, None)
        .await
        .expect_err("taken");
    assert_eq!(err.field(), Some("email"));
    assert_eq!(
        accounts::count(&pool).await.expect("count"),
        1,
        "nothing half-created"
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn changing_the_password_needs_the_current_one(pool: PgPool) {
    let alice = user(&pool, "alice", false).await;
    let new = || Password::new_choice("a brand new password").expect("ok");
    let wrong = accounts::change_password(&pool, &alice, pw("not-the-password"), new()).await;
    assert!(matches!(wrong, Err(ChangePasswordError::WrongCurrent)));
    accounts::change_password(&pool, &alice, pw("alice-password"), new())
        .await
        .expect("changed");
    assert!(
        accounts::sign_in(&pool, "alice", pw("alice-password"), "10.0.0.1")
            .await
            .is_err()
    );
    assert!(
        accounts::sign_in(&pool, "alice", pw("a brand new password"), "10.0.0.1")
            .await
            .is_ok()
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn security_events_are_audited(pool: PgPool) {
    user(&pool, "alice", false).await;
    let _ = accounts::sign_in(&pool, "alice", pw("wrong-wrong-wrong"), "10.0.0.1").await;
    accounts::sign_in(&pool, "alice", pw("alice-password"), "10.0.0.1")
        .await
        .expect("ok");
    let log = db::audit::list(&pool, None, 10).await.expect("log");
    let actions: Vec<&str> = log.iter().map(|r| r.action.as_str()).collect();
    assert_eq!(actions, ["sign_in", "sign_in_failed", "user_created"]);
}

/// Every role (and none, and an administrator) against every action, in the event where the role
/// is held and in another event: the role of event A gives nothing in event B.
#[sqlx::test(migrator = "db::MIGRATOR")]
async fn the_role_matrix_holds_in_the_database(pool: PgPool) {
    let admin = user(&pool, "admin", true).await;
    let a = db::events::create(&pool, &admin, "Event A")
        .await
        .expect("event A");
    let b = db::events::create(&pool, &admin, "Event B")
        .await
        .expect("event B");
    let mut people = vec![(None, user(&pool, "nobody", false).await)];
    for role in Role::ALL {
        let person = user(
            &pool,
            &format!("p-{}", role.as_str().replace('_', "-")),
            false,
        )
        .await;
        roles::grant(&pool, &admin, a.id, &person.username, role)
            .await
            .expect("granted");
        people.push((Some(role), person));
    }
    for (role, person) in &people {
        for action in Action::ALL {
            let in_a = roles::authorize(&pool, Some(person), a.id, action).await;
            assert_eq!(
                in_a.is_ok(),
                roles::allows(*role, false, action),
                "{role:?} {action:?} in A"
            );
            let in_b = roles::authorize(&pool, Some(person), b.id, action).await;
            assert_eq!(
                in_b.is_ok(),
                action == Action::ViewPublic,
                "{role:?} {action:?} in B"
            );
            if action != Action::ViewPublic {
                assert!(matches!(in_b, Err(AccessError::Forbidden)));
            }
        }
    }
    for action in Action::ALL {
        let anonymous = roles::authorize(&pool, None, a.id, action).await;
        match action {
            Action::ViewPublic => assert!(anonymous.is_ok()),
            _ => assert!(
                matches!(anonymous, Err(AccessError::SignInRequired)),
                "{action:?}"
            ),
        }
        assert!(
            roles::authorize(&pool, Some(&admin), b.id, action)
                .await
                .is_ok()
        );
    }
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn only_organisers_grant_roles_and_grants_are_audited(pool: PgPool) {
    let admin = user(&pool, "admin", true).await;
    let event = db::events::create(&pool, &admin, "GenCon Qualifier")
        .await
        .expect("event");
    let judge = user(&pool, "judy", false).await;
    user(&pool, "pat", false).await;
    roles::grant(&pool, &admin, event.id, "judy", Role::Judge)
        .await
        .expect("granted");
    let by_judge = roles::grant(&pool, &judge, event.id, "pat", Role::HeadJudge).await;
    assert!(matches!(
        by_judge,
        Err(roles::GrantError::Access(AccessError::Forbidden))
    ));
    let missing = roles::grant(&pool, &admin, event.id, "nobody-here", Role::Judge).await;
    assert!(matches!(missing, Err(roles::GrantError::NoSuchUser(_))));
    let staff = roles::staff(&pool, event.id).await.expect("staff");
    assert_eq!(
        staff.len(),
        2,
        "the creator (organiser) and the judge: {staff:?}"
    );
    let log = db::audit::list(&pool, Some(event.id), 10)
        .await
        .expect("log");
    assert_eq!(log[0].action, "role_granted");
    assert_eq!(log[0].subject.as_deref(), Some("judy"));
    assert_eq!(log[0].actor.as_deref(), Some("admin"));
}

/// A session row as the store writes it (its content does not matter here).
async fn store_session(pool: &PgPool, id: &str) {
    sqlx::query(
        "INSERT INTO tower_sessions.session (id, data, expiry_date) VALUES ($1, '\\x00', now() + interval '1 day')",
    )
    .bind(id)
    .execute(pool)
    .await
    .expect("session stored");
}

async fn stored_sessions(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT id FROM tower_sessions.session ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("sessions")
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn signing_out_everywhere_removes_every_session_of_that_account_only(pool: PgPool) {
    let ana = user(&pool, "ana", false).await;
    let bob = user(&pool, "bob", false).await;
    for (id, who) in [
        ("ana-phone", &ana),
        ("ana-laptop", &ana),
        ("bob-phone", &bob),
    ] {
        store_session(&pool, id).await;
        accounts::record_session(&pool, who.user_id, id)
            .await
            .expect("recorded");
    }
    // An anonymous visitor's session belongs to nobody.
    store_session(&pool, "visitor").await;

    let removed = accounts::sign_out_everywhere(&pool, &ana)
        .await
        .expect("signed out");
    assert_eq!(removed, 2);
    assert_eq!(stored_sessions(&pool).await, ["bob-phone", "visitor"]);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM account_sessions WHERE user_id = $1")
        .bind(ana.user_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    assert_eq!(
        accounts::sign_out_everywhere(&pool, &ana)
            .await
            .expect("again"),
        0,
        "nothing left to sign out"
    );
}

#[sqlx::test(migrator = "db::MIGRATOR")]
async fn a_display_name_is_checked_and_can_be_cleared(pool: PgPool) {
    let ana = user(&pool, "ana", false).await;
    assert_eq!(
        accounts::set_display_name(&pool, &ana, "  Ana Lüthi ")
            .await
            .unwrap(),
        Some("Ana Lüthi".to_owned())
    );
    assert_eq!(
        accounts::display_name(&pool, ana.user_id)
            .await
            .unwrap()
            .as_deref(),
        Some("Ana Lüthi")
    );
    assert!(matches!(
        accounts::set_display_name(&pool, &ana, &"x".repeat(61)).await,
        Err(accounts::DisplayNameError::Invalid)
    ));
    assert_eq!(
        accounts::set_display_name(&pool, &ana, "").await.unwrap(),
        None
    );
    assert_eq!(
        accounts::display_name(&pool, ana.user_id).await.unwrap(),
        None
    );
}
