use super::*;

#[test]
fn errors_can_cross_threads() {
    // A server hands errors between tasks and threads.
    fn send_sync<T: Send + Sync>() {}
    send_sync::<ApiError>();
    send_sync::<ValidationError>();
}

#[test]
fn locations_are_written_as_pydantic_writes_them() {
    // docs/decisions.md §8: loc is an array of strings and integers, indexes from 0
    let loc = Loc::root("body").key("lines").index(3).key("quantity");
    assert_eq!(
        loc.to_json().to_string(),
        r#"["body","lines",3,"quantity"]"#
    );
    assert_eq!(loc.to_string(), "body.lines.3.quantity");
}

#[test]
fn an_answer_is_never_empty_and_no_error_is_no_answer() {
    assert_eq!(ApiError::check(Vec::new()), Ok(()));
    let missing = ValidationError::new(ErrorCode::Missing, Loc::root("body"), "m");
    let e = ApiError::check(vec![missing.clone()]).unwrap_err();
    assert_eq!((e.status, e.errors.len()), (422, 1));
}

#[test]
fn a_storage_failure_answers_alone_with_its_500() {
    let missing = ValidationError::new(ErrorCode::Missing, Loc::root("body"), "m");
    let failed = ValidationError::new(ErrorCode::InternalError, Loc::default(), "i");
    let e = ApiError::check(vec![missing.clone(), failed.clone()]).unwrap_err();
    assert_eq!((e.status, e.errors), (500, vec![failed.clone()]));
    let e = ApiError::from(failed.clone()).after(vec![missing.clone()]);
    assert_eq!((e.status, e.errors), (500, vec![failed]));
    let e = ApiError::from(missing.clone()).after(vec![missing.clone()]);
    assert_eq!((e.status, e.errors.len()), (422, 2));
}
