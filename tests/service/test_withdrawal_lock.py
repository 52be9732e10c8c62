"""The second withdrawn head's lockup: only the operator clears it, through the audited menu
(issue 23, part 3; docs/security.md, "Outcomes sealed when drawn")."""

from __future__ import annotations

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import ServiceError
from tests.helpers.service_rig import ServiceRig


def test_only_the_operator_clears_a_second_withdrawal(srig: ServiceRig) -> None:
    rt = srig.runtime
    earlier = srig.clock() - 3600 * 1000  # an hour ago, within the 24 h window
    events = rt.execute(
        c.RecordWithdrawal(epoch=1, seq=9, chain_hash="ab" * 32, store_seq=8, earlier=(earlier,))
    )
    assert [type(x) for x in events] == [e.HeadWithdrawn, e.TiltRaised]
    assert "head_withdrawn" in rt.state.tilts and not rt.accepting_money()
    session = srig.enter(Role.ATTENDANT)
    with pytest.raises(ServiceError, match="cleared only by the operator"):
        session.call("clear_tilt", {"code": "head_withdrawn"})
    assert "head_withdrawn" in rt.state.tilts
    session.leave()
    audited = srig.audit_count()
    session = srig.enter(Role.OPERATOR)
    assert session.call("clear_tilt", {"code": "head_withdrawn"}).ok
    session.leave()
    assert rt.state.tilts == {} and rt.accepting_money()
    cleared = [r.event for r in rt.journal.rows() if isinstance(r.event, e.TiltCleared)]
    assert cleared[-1].code == "head_withdrawn" and cleared[-1].by == "operator"
    assert srig.audit_count() > audited  # the clear is in the service audit log
