//! Group votes without `VK_EXT_shader_subgroup_vote`.
//!
//! glslang makes `GL_ARB_shader_group_vote`'s `anyInvocationARB`, `allInvocationsARB` and
//! `allInvocationsEqualARB` (GLSL 4.60's names without `ARB`) `OpSubgroupAnyKHR`,
//! `OpSubgroupAllKHR` and `OpSubgroupAllEqualKHR` (`SPV_KHR_subgroup_vote`), which a device
//! with `VK_EXT_shader_subgroup_vote` runs as they are, over its subgroups, in every stage.
//! On a device without it each invocation votes alone, which the GL extension allows
//! ("simply returning &lt;value&gt; for anyInvocationARB() and allInvocationsARB() and returning
//! true for allInvocationsEqualARB() is a legal implementation"): any and all become a copy
//! of the value, all-equal the value compared with itself, and the capability and the
//! extension go.

use super::{inst, op};

const EXTENSION: u32 = 10;
const CAPABILITY: u32 = 17;
const COPY_OBJECT: u32 = 83;
const LOGICAL_EQUAL: u32 = 164;
const ALL: u32 = 4428;
const ANY: u32 = 4429;
const ALL_EQUAL: u32 = 4430;
const SUBGROUP_VOTE: u32 = 4431;

/// The module with each vote made a single invocation's; `None` when it votes nowhere.
pub(crate) fn single_invocation_votes(words: &[u32]) -> Option<Vec<u32>> {
    let vote = |o: u32| (ALL..=ALL_EQUAL).contains(&o);
    let mut at = 5;
    let mut found = false;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        found |= vote(op(&words[at..]));
        at += count;
    }
    if !found {
        return None;
    }
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..5]);
    let mut at = 5;
    while at < words.len() {
        let i = &words[at..at + (words[at] >> 16) as usize];
        at += i.len();
        match op(i) {
            CAPABILITY if i.get(1) == Some(&SUBGROUP_VOTE) => {}
            EXTENSION if extension_name(&i[1..]) == b"SPV_KHR_subgroup_vote" => {}
            ANY | ALL if i.len() == 4 => out.extend(inst(COPY_OBJECT, &i[1..])),
            ALL_EQUAL if i.len() == 4 => {
                out.extend(inst(LOGICAL_EQUAL, &[i[1], i[2], i[3], i[3]]));
            }
            _ => out.extend_from_slice(i),
        }
    }
    Some(out)
}

/// The bytes of a literal string's words, up to its terminating zero.
fn extension_name(words: &[u32]) -> Vec<u8> {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Vec<u32> {
        let mut b = s.as_bytes().to_vec();
        b.resize((b.len() / 4 + 1) * 4, 0);
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn votes_become_single_invocation_ones() {
        let mut words = vec![0x0723_0203, 0x0001_0000, 0, 9, 0];
        for i in [
            inst(CAPABILITY, &[1]),
            inst(CAPABILITY, &[SUBGROUP_VOTE]),
            inst(EXTENSION, &name("SPV_KHR_subgroup_vote")),
            inst(ANY, &[2, 5, 3]),
            inst(ALL, &[2, 6, 3]),
            inst(ALL_EQUAL, &[2, 7, 4]),
        ] {
            words.extend(i);
        }
        let out = single_invocation_votes(&words).expect("votes to lower");
        let mut expected = vec![0x0723_0203, 0x0001_0000, 0, 9, 0];
        for i in [
            inst(CAPABILITY, &[1]),
            inst(COPY_OBJECT, &[2, 5, 3]),
            inst(COPY_OBJECT, &[2, 6, 3]),
            inst(LOGICAL_EQUAL, &[2, 7, 4, 4]),
        ] {
            expected.extend(i);
        }
        assert_eq!(out, expected);
        assert!(single_invocation_votes(&out).is_none());
    }
}
