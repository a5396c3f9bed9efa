//! Object lifetime: references, and the one explicit destroy when the last one goes.
//!
//! GL lets an object outlive its name while something still refers to it (a binding in
//! another context, an attachment of an unbound framebuffer, a buffer of an unbound vertex
//! array, a program current somewhere). Every such reference is counted in the object's
//! [`Life`]; when the object has neither name nor references it is destroyed exactly once:
//! its `Destroy*` record is emitted, its wire slot freed, its entity despawned, and the
//! references *it* held are released in turn. Backends never discover deaths on their own.

use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use tessera_components::object::{
    AttachmentGl, Buffer, Framebuffer, Life, Program, Query, Renderbuffer, Sync, Texture,
    VertexArray,
};
use tessera_wire::record::Record;

use crate::emitter::Emitter;

/// Adds a reference to an object.
#[inline]
pub fn retain(world: &mut World, entity: Entity) {
    if let Some(life) = world.get::<Life>(entity) {
        life.refs.add();
    }
}

/// Drops a reference to an object, destroying it if that was the last thing keeping it.
pub fn release(world: &mut World, dev: &mut Emitter, entity: Entity) {
    let dead = world.get::<Life>(entity).is_some_and(|life| {
        life.refs.sub();
        life.is_dead()
    });
    if dead {
        destroy(world, dev, entity);
    }
}

/// Swaps the object a reference points at: retains `new`, releases `old`.
#[inline]
pub fn replace(world: &mut World, dev: &mut Emitter, old: Option<Entity>, new: Option<Entity>) {
    if old == new {
        return;
    }
    if let Some(new) = new {
        retain(world, new);
    }
    if let Some(old) = old {
        release(world, dev, old);
    }
}

/// Takes the object's name away (`delete_*`), destroying it if nothing refers to it.
pub fn unname(world: &mut World, dev: &mut Emitter, entity: Entity) {
    let dead = match world.get_mut::<Life>(entity) {
        Some(mut life) => {
            life.name = 0;
            life.is_dead()
        }
        None => false,
    };
    if dead {
        destroy(world, dev, entity);
    }
}

/// Marks a shader or program deleted; it keeps its name until no reference remains.
/// Returns whether it died now.
pub fn delete_pending(world: &mut World, dev: &mut Emitter, entity: Entity) -> bool {
    let dead = match world.get_mut::<Life>(entity) {
        Some(mut life) => {
            life.delete_pending = true;
            life.is_dead()
        }
        None => false,
    };
    if dead {
        destroy(world, dev, entity);
    }
    dead
}

/// Destroys an object now: emits its `Destroy*`, frees its handle, despawns it and releases
/// what it referenced. A shader or program that still had its name reports it in
/// `dev.released_names` so the engine frees the name.
fn destroy(world: &mut World, dev: &mut Emitter, entity: Entity) {
    let mut held: Vec<Entity> = Vec::new();
    if let Some(life) = world.get::<Life>(entity)
        && life.delete_pending
        && life.name != 0
    {
        dev.released_names.push(life.name);
    }
    if let Some(b) = world.get::<Buffer>(entity) {
        dev.push(Record::DestroyBuffer { buffer: b.handle });
        dev.alloc.free(b.handle);
    } else if let Some(t) = world.get::<Texture>(entity) {
        dev.push(Record::DestroyTexture { texture: t.handle });
        dev.alloc.free(t.handle);
        held.extend(t.buffer.map(|b| b.buffer));
        // A view keeps the texture that owns its storage.
        held.extend(t.view_of);
    } else if let Some(r) = world.get::<Renderbuffer>(entity) {
        dev.push(Record::DestroyRenderbuffer {
            renderbuffer: r.handle,
        });
        dev.alloc.free(r.handle);
    } else if let Some(f) = world.get::<Framebuffer>(entity) {
        dev.push(Record::DestroyFramebuffer {
            framebuffer: f.handle,
        });
        dev.alloc.free(f.handle);
        for a in &f.attachments {
            match a {
                AttachmentGl::None => {}
                AttachmentGl::Texture { texture, .. } => held.push(*texture),
                AttachmentGl::Renderbuffer(rb) => held.push(*rb),
            }
        }
    } else if let Some(v) = world.get::<VertexArray>(entity) {
        held.extend(v.bindings.iter().filter_map(|b| b.buffer));
        held.extend(v.element_buffer);
    } else if let Some(p) = world.get::<Program>(entity) {
        if let Some(program) = p.handle {
            dev.push(Record::DestroyProgram { program });
            dev.alloc.free(program);
        }
        held.extend(p.attached.iter().copied());
    } else if let Some(q) = world.get::<Query>(entity) {
        dev.push(Record::DestroyQuery { query: q.handle });
        dev.alloc.free(q.handle);
    } else if let Some(s) = world.get::<Sync>(entity) {
        dev.push(Record::DestroyFence { fence: s.handle });
        dev.alloc.free(s.handle);
    }
    // Samplers and shaders have no wire object: sampler state travels as content-addressed
    // CSOs, shader code inside programs.
    world.despawn(entity);
    for e in held {
        release(world, dev, e);
    }
}
