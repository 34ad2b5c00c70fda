package main

// namedFirst names, for each named mutant, the test that catches it (as
// the last full run reported it: "caught by"). runMutant runs that test
// alone first and the whole package only when it passes, so a mutant
// costs one compile and one test instead of every test before its killer
// (-failfast ran the package in file order): CI's mutation stage had grown
// to about 5 minutes for 40 mutants on two cores. A mutant is still killed
// only by a failing test, and one whose test no longer catches it runs the
// whole package as before, so a stale or missing entry costs time, never
// a verdict.
var namedFirst = map[string]string{
	"chain-prev":                       "TestAcceptRefusesBrokenChain",
	"chain-seq":                        "TestAcceptRefusesOutOfSequence",
	"broken-accepts":                   "TestBrokenMatchAcceptsNothingMore",
	"broken-stages":                    "TestBrokenMatchAcceptsNothingMore",
	"done-accepts":                     "TestFinishedMatchAcceptsNoMessage",
	"envelope-size":                    "TestDecodeEnvelopeRefusesOversize",
	"envelope-empty-body":              "TestDecodeEnvelopeRefusesBodilessEnvelope",
	"envelope-compact-body":            "TestDecodeEnvelopeRefusesNonCompactBody",
	"dice-seed-ignored":                "TestDiceChainDependsOnItsSecretSeed",
	"dice-seed-not-drawn":              "TestDiceChainDependsOnItsSecretSeed",
	"dice-next-at-chain-end":           "TestDiceNextChainAttacks",
	"preshare-void-on-decision":        "TestAttackVoidedPreshareCountsInNoRoll",
	"preshare-next-voids-other":        "TestAttackNewChainAgainstPendingPreshares",
	"preshare-keep-in-progress":        "TestPreshareOfTheRollInProgressOutlivesANewChain",
	"preshare-must-name-next":          "TestAttackNewChainAgainstPendingPreshares",
	"preshare-not-before-decision":     "TestAttackPreshareBeforeADecision",
	"preshare-no-next-against-pending": "TestAttackPreshareNamesANewChainAgainstPendingPreshares",
	"preshare-two-player":              "TestAttackPreshareInAThreePlayerMatch",
	"preshare-seat-at-table":           "TestAttackPreshareFromAStrangerInAReplay",
	"preshare-group-places":            "TestPreshareKeepsTheMembersOfAParallelGroup",
	"rolls-run-chain-end":              "TestAttackPresharePropertyRandomScripts",
	"rolls-run-no-preshare":            "TestAttackPresharesMutatedLiveEveryGame",
	"rolls-run-seat-order":             "TestAttackLastShareMemberPreshareThreeSeats",
	"member-preshares-last-share":      "TestAttackPresharesInAMemberNotAtARollsLastPlace",
	"member-preshares-one-roll":        "TestAttackPresharesInAMemberNotAtARollsLastPlace",
	"rolls-run-broken-order":           "TestAttackRollsRunBrokenLeavesOneOrder",
	"bad-member-proved":                "TestAttackPresharesInAMemberNotAtARollsLastPlace",
	"preshare-chain":                   "TestAttackPreshareOfTheOtherSeatsLink",
	"dice-chains-own-seeds":            "TestDiceChainsNeverRepeatALink",
	"player-key-verifies":              "TestAttackUnsignedClaimBeatsSigned",
	"audit-batch-marks-valid":          "TestAuditBatchNamesTheSameLine",
	"audit-batch-equation":             "TestAuditBatchNamesTheSameLine",
	"merkle-index-bound":               "TestVerifyPathRefusesIndexOutsideVector",
	"closing-sig-verify":               "TestAuditRefusesClosingWithBadSignature",
	"closing-sig-audit":                "TestAuditRefusesClosingWithBadSignature",
	"closing-sig-adopt":                "TestForeignClosingIsChecked",
	"joint-forfeit-compare":            "TestJointAuditOfTwoGiveUpsIsDisputed",
	"remove-silence-first":             "TestAttackRemovalInTheMessageThatMadeTheSeatAwaited",
	"remove-left-sent-later":           "TestAttackRemovalWithABackDatedLeftRecord",
	"ubuild-claims-after-other-ship":   "TestSettleClaimsChecksClaimsAfterOneAboutAnotherShip",
}
