//! GL name tables: their memory follows the live objects, not every name ever generated, and
//! names handed out at the top of the 32-bit name space never collide with live ones.

use std::collections::BTreeSet;

use tessera_engine::gl::*;
use tessera_tests::{assert_no_error, context};

/// What the texture table may hold with a handful of live names (the old table held 16 bytes
/// per name ever generated: 16 MB after these cycles).
const SMALL_TABLE_BYTES: usize = 4096;

#[test]
fn a_million_texture_gen_delete_cycles_keep_the_name_table_at_the_live_count() {
    let mut ctx = context();
    let mut kept = [0; 3];
    ctx.gen_textures(3, &mut kept);
    assert_eq!(kept, [1, 2, 3]);
    ctx.bind_texture(TEXTURE_2D, kept[0]);
    ctx.bind_texture(TEXTURE_2D, 0);
    let before = ctx.texture_name_stats();
    assert_eq!(before.live, 3);

    for i in 0..1_000_000u32 {
        let t = ctx.gen_texture();
        assert_eq!(
            t,
            4 + i,
            "names count up past every name handed out, as Mesa's"
        );
        if i % 1000 == 0 {
            // Some of them get an object too.
            ctx.bind_texture(TEXTURE_2D, t);
            ctx.bind_texture(TEXTURE_2D, 0);
        }
        ctx.delete_textures(1, &[t]);
    }

    let after = ctx.texture_name_stats();
    assert_eq!(after.live, 3, "only the three kept names are live");
    assert!(
        after.footprint <= SMALL_TABLE_BYTES,
        "{} bytes for 3 live names after 1,000,000 generated",
        after.footprint
    );
    assert_eq!(ctx.is_texture(kept[0]), TRUE as u8);
    assert_eq!(
        ctx.is_texture(kept[1]),
        FALSE as u8,
        "reserved, never bound"
    );
    ctx.bind_texture(TEXTURE_2D, kept[2]);
    assert_no_error!(ctx);

    ctx.delete_textures(3, &kept);
    assert_eq!(ctx.texture_name_stats().live, 0);
    assert_eq!(
        ctx.gen_texture(),
        1_000_004,
        "a deleted name is not handed out again"
    );
    assert_no_error!(ctx);
}

#[test]
fn texture_names_at_the_top_of_the_name_space_never_collide_with_live_ones() {
    let mut ctx = context();
    let mut low = [0; 5];
    ctx.gen_textures(5, &mut low);
    assert_eq!(low, [1, 2, 3, 4, 5]);
    ctx.bind_texture(TEXTURE_2D, 1);
    ctx.bind_texture(TEXTURE_CUBE_MAP, 3);
    ctx.delete_textures(1, &[2]);

    ctx.advance_texture_names(u32::MAX - 1);
    let mut top = [0; 5];
    ctx.gen_textures(5, &mut top);
    assert_eq!(
        top,
        [u32::MAX - 1, u32::MAX, 2, 6, 7],
        "up to u32::MAX, then the lowest free names: live 1, 3, 4 and 5 are skipped"
    );
    ctx.bind_texture(TEXTURE_3D, u32::MAX);
    assert_eq!(ctx.is_texture(u32::MAX), TRUE as u8);
    // The objects made before the top was reached still answer to their names and targets.
    ctx.bind_texture(TEXTURE_2D, 1);
    ctx.bind_texture(TEXTURE_CUBE_MAP, 3);
    assert_eq!(
        ctx.is_texture(2),
        FALSE as u8,
        "2 is reserved again, with no object"
    );
    assert_no_error!(ctx);

    // Generate and delete in a mixed pattern: every name handed out is the lowest free one.
    let mut live: BTreeSet<u32> = [1, 3, 4, 5].into_iter().chain(top).collect();
    for i in 0..5000u32 {
        let t = ctx.gen_texture();
        assert_eq!(t, lowest_free(&live), "generation {i}");
        assert!(live.insert(t), "name {t} handed out while live");
        if i % 3 == 0 {
            // Free an older name, from the bottom, the middle or the top of the space.
            let old = match i % 9 {
                0 => *live.first().expect("live names"),
                3 => *live.iter().nth(live.len() / 2).expect("live names"),
                _ => *live.last().expect("live names"),
            };
            live.remove(&old);
            ctx.delete_textures(1, &[old]);
        }
        if i % 500 == 0 && live.contains(&t) {
            ctx.bind_texture(TEXTURE_2D, t);
        }
    }
    assert_eq!(ctx.texture_name_stats().live, live.len());
    assert_no_error!(ctx);
}

/// The lowest name that is not live (the model of the table at the top of the name space).
fn lowest_free(live: &BTreeSet<u32>) -> u32 {
    let mut expected = 1;
    for &name in live {
        if name != expected {
            break;
        }
        expected += 1;
    }
    expected
}
