//! The share group's side of record emission: one encoder, the handle allocators and the CSO
//! caches, used by every context of the group under the group's lock.
//!
//! One encoder for the whole group keeps the records of all its contexts in one order, so an
//! object created by one context is always created before another context's records use it.

use tessera_wire::Encoder;
use tessera_wire::handle::{
    BlendHandle, DepthStencilHandle, RasterHandle, SamplerHandle, VertexLayoutHandle,
};
use tessera_wire::record::Record;
use tessera_wire::state::{BlendState, DepthStencilState, RasterState, SamplerState, VertexLayout};

use crate::alloc::HandleAllocators;
use crate::cso::{CsoCache, CsoStats, DEFAULT_CSO_CAPACITY};

/// Counters of what was emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Draw records.
    pub draws: u64,
    /// Records of any kind.
    pub records: u64,
    /// Stage bytes.
    pub stage_bytes: u64,
    /// Bytes of persistent mappings sent as writes (the part of `stage_bytes` that carried
    /// what the program wrote through a persistent mapping).
    pub persistent_bytes: u64,
}

/// CSO caches by kind.
#[derive(Debug)]
pub struct CsoCaches {
    /// Blend states.
    pub blend: CsoCache<BlendState, BlendHandle>,
    /// Depth-stencil states.
    pub depth_stencil: CsoCache<DepthStencilState, DepthStencilHandle>,
    /// Rasterizer states.
    pub raster: CsoCache<RasterState, RasterHandle>,
    /// Sampler states.
    pub sampler: CsoCache<SamplerState, SamplerHandle>,
    /// Vertex layouts.
    pub vertex_layout: CsoCache<VertexLayout, VertexLayoutHandle>,
}

impl CsoCaches {
    /// Empty caches of `capacity` CSOs per kind.
    pub fn new(capacity: usize) -> Self {
        Self {
            blend: CsoCache::new(capacity),
            depth_stencil: CsoCache::new(capacity),
            raster: CsoCache::new(capacity),
            sampler: CsoCache::new(capacity),
            vertex_layout: CsoCache::new(capacity),
        }
    }

    /// Hits, misses and evictions over all kinds.
    pub fn stats(&self) -> CsoStats {
        let all = [
            self.blend.stats(),
            self.depth_stencil.stats(),
            self.raster.stats(),
            self.sampler.stats(),
            self.vertex_layout.stats(),
        ];
        all.iter().fold(CsoStats::default(), |a, s| CsoStats {
            hits: a.hits + s.hits,
            misses: a.misses + s.misses,
            evicted: a.evicted + s.evicted,
        })
    }
}

/// Emission state of a share group.
#[derive(Debug)]
pub struct Emitter {
    /// The batch being built.
    pub enc: Encoder,
    /// Wire handle allocators.
    pub alloc: HandleAllocators,
    /// CSO caches.
    pub csos: CsoCaches,
    /// Context the encoder's records currently apply to (0: none yet).
    current_context: u32,
    /// Counters.
    pub counters: Counters,
    /// Names of shaders and programs that died while their deletion was pending; the engine
    /// frees them from its name table.
    pub released_names: Vec<u32>,
}

impl Default for Emitter {
    fn default() -> Self {
        Self::new(DEFAULT_CSO_CAPACITY)
    }
}

impl Emitter {
    /// A device whose CSO caches keep `cso_capacity` objects per kind.
    pub fn new(cso_capacity: usize) -> Self {
        Self {
            enc: Encoder::new(),
            alloc: HandleAllocators::default(),
            csos: CsoCaches::new(cso_capacity),
            current_context: 0,
            counters: Counters::default(),
            released_names: Vec::new(),
        }
    }

    /// Makes the following records apply to `context`, emitting `SetContext` if another
    /// context's records came last. Cheap when it is already current.
    #[inline]
    pub fn use_context(&mut self, context: u32) {
        if self.current_context != context {
            self.current_context = context;
            self.enc.push(Record::SetContext { context });
        }
    }

    /// Appends a record.
    #[inline]
    pub fn push(&mut self, record: Record) {
        self.enc.push(record);
    }
}
