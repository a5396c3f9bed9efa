//! Submissions: commands are recorded into the current [`Frame`]'s command buffer and
//! submitted with a fence at the end of every batch, and earlier when a record needs the
//! GPU's result (read-backs, query results, fences, `Finish`). At most [`MAX_IN_FLIGHT`]
//! submissions are in flight; taking a fourth frame waits for the oldest. A retired frame's
//! arena, descriptor pools and garbage (objects destroyed while the GPU could still read
//! them) are recycled or destroyed then, never earlier.

use std::collections::VecDeque;

use ash::vk;
use tessera_wire::SessionError;

use crate::device::{VkPipe, count, vk_error};
use crate::memory::{Arena, Owned, Slice};

/// Submissions that may be in flight at once.
const MAX_IN_FLIGHT: usize = 3;

/// Descriptor sets per pool (pools are per frame and grow by whole pools).
const SETS_PER_POOL: u32 = 256;

/// A Vulkan object whose destruction waits for a submission to retire.
pub(crate) enum Garbage {
    Buffer(Owned),
    Image(vk::Image, vk_mem::Allocation),
    /// An image in memory imported for it alone (`GL_EXT_memory_object_fd`).
    ImportedImage(vk::Image, vk::DeviceMemory),
    /// A semaphore imported for one wait or signal (`GL_EXT_semaphore_fd`).
    Semaphore(vk::Semaphore),
    View(vk::ImageView),
    BufferView(vk::BufferView),
    /// A buffer without an allocation of its own (bound to another's memory).
    RawBuffer(vk::Buffer),
    Sampler(vk::Sampler),
    Framebuffer(vk::Framebuffer),
    Pipeline(vk::Pipeline),
    Module(vk::ShaderModule),
    QueryPool(vk::QueryPool),
}

impl Garbage {
    fn destroy(self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        // SAFETY: the submission that last could use the object retired (its fence
        // signalled) or the device is idle; each object is destroyed once (garbage is
        // moved out of its list).
        unsafe {
            match self {
                Garbage::Buffer(b) => crate::memory::free_buffer(alloc, b),
                Garbage::Image(i, mut a) => alloc.destroy_image(i, &mut a),
                Garbage::ImportedImage(i, m) => {
                    raw.destroy_image(i, None);
                    raw.free_memory(m, None);
                }
                Garbage::Semaphore(s) => raw.destroy_semaphore(s, None),
                Garbage::View(v) => raw.destroy_image_view(v, None),
                Garbage::BufferView(v) => raw.destroy_buffer_view(v, None),
                Garbage::RawBuffer(b) => raw.destroy_buffer(b, None),
                Garbage::Sampler(s) => raw.destroy_sampler(s, None),
                Garbage::Framebuffer(f) => raw.destroy_framebuffer(f, None),
                Garbage::Pipeline(p) => raw.destroy_pipeline(p, None),
                Garbage::Module(m) => raw.destroy_shader_module(m, None),
                Garbage::QueryPool(q) => raw.destroy_query_pool(q, None),
            }
        }
    }
}

/// One submission's command buffers and the memory their commands read.
pub(crate) struct Frame {
    pool: vk::CommandPool,
    pub cmd: vk::CommandBuffer,
    /// Submitted ahead of `cmd`, begun on first use: uploads into images no command has
    /// used yet, so they need not end `cmd`'s render pass ([`VkPipe::prologue`]).
    prologue: vk::CommandBuffer,
    /// Whether `prologue` is recording (and is to be submitted).
    prologue_open: bool,
    fence: vk::Fence,
    /// Serial of this submission (serials grow by one per submission).
    pub serial: u64,
    pub arena: Arena,
    desc_pools: Vec<vk::DescriptorPool>,
    desc_next: usize,
    pub garbage: Vec<Garbage>,
}

impl Frame {
    fn new(raw: &ash::Device, family: u32) -> Result<Self, SessionError> {
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::TRANSIENT);
        // SAFETY: a live device; `family` is the queue family the device was created with.
        let pool = unsafe { raw.create_command_pool(&pool_info, None) }
            .map_err(|e| vk_error("vkCreateCommandPool", e))?;
        let alloc_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(2);
        // SAFETY: a live pool of this device.
        let cmds = unsafe { raw.allocate_command_buffers(&alloc_info) }
            .map_err(|e| vk_error("vkAllocateCommandBuffers", e))?;
        let (cmd, prologue) = (cmds[0], cmds[1]);
        // SAFETY: a live device.
        let fence = unsafe { raw.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(|e| vk_error("vkCreateFence", e))?;
        Ok(Self {
            pool,
            cmd,
            prologue,
            prologue_open: false,
            fence,
            serial: 0,
            arena: Arena::default(),
            desc_pools: Vec::new(),
            desc_next: 0,
            garbage: Vec::new(),
        })
    }

    fn recycle(&mut self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        // SAFETY: the frame's submission retired (fence waited) or was never submitted;
        // resetting the pool and fence and the descriptor pools is then allowed.
        unsafe {
            let _ = raw.reset_command_pool(self.pool, vk::CommandPoolResetFlags::empty());
            let _ = raw.reset_fences(&[self.fence]);
            for &p in &self.desc_pools {
                let _ = raw.reset_descriptor_pool(p, vk::DescriptorPoolResetFlags::empty());
            }
        }
        self.desc_next = 0;
        self.prologue_open = false;
        self.arena.reset(alloc);
        for g in self.garbage.drain(..) {
            g.destroy(raw, alloc);
        }
    }

    fn destroy(mut self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        self.recycle(raw, alloc);
        self.arena.destroy(alloc);
        // SAFETY: the frame is idle (recycled above); each object destroyed once.
        unsafe {
            for &p in &self.desc_pools {
                raw.destroy_descriptor_pool(p, None);
            }
            raw.destroy_fence(self.fence, None);
            raw.destroy_command_pool(self.pool, None);
        }
    }
}

/// The current frame, the frames in flight, and recycled ones.
pub(crate) struct Frames {
    pub current: Frame,
    in_flight: VecDeque<Frame>,
    free: Vec<Frame>,
    family: u32,
    /// Every serial up to this one has retired.
    pub completed: u64,
    /// Semaphores the next submission waits on before its commands (`semaphore.rs`).
    pub waits: Vec<vk::Semaphore>,
}

impl Frames {
    pub fn new(raw: &ash::Device, family: u32) -> Result<Self, crate::CreateBackendError> {
        let mut current =
            Frame::new(raw, family).map_err(|e| crate::CreateBackendError::Setup {
                reason: e.to_string(),
            })?;
        current.serial = 1;
        Ok(Self {
            current,
            in_flight: VecDeque::new(),
            free: Vec::new(),
            family,
            completed: 0,
            waits: Vec::new(),
        })
    }

    pub fn destroy(&mut self, raw: &ash::Device, alloc: &vk_mem::Allocator) {
        let current = std::mem::replace(
            &mut self.current,
            Frame {
                pool: vk::CommandPool::null(),
                cmd: vk::CommandBuffer::null(),
                prologue: vk::CommandBuffer::null(),
                prologue_open: false,
                fence: vk::Fence::null(),
                serial: 0,
                arena: Arena::default(),
                desc_pools: Vec::new(),
                desc_next: 0,
                garbage: Vec::new(),
            },
        );
        current.destroy(raw, alloc);
        for f in self.in_flight.drain(..).chain(self.free.drain(..)) {
            f.destroy(raw, alloc);
        }
    }
}

impl VkPipe {
    /// Starts recording the current frame.
    pub fn begin_frame(&mut self) -> Result<(), SessionError> {
        let cmd = self.frames.current.cmd;
        let info = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the frame's command buffer is in the initial state (new, or its pool was
        // reset when the frame was recycled).
        unsafe { self.raw.begin_command_buffer(cmd, &info) }
            .map_err(|e| vk_error("vkBeginCommandBuffer", e))?;
        self.rec.reset(cmd, self.frames.current.serial);
        Ok(())
    }

    /// The current frame's prologue, begun if it is not yet: a command buffer submitted
    /// ahead of the frame's, for uploads into images that no command has used yet (their
    /// tracked layout is still `UNDEFINED`), which may then run before every command of the
    /// frame without ending its render pass. What the frame's commands do with such an
    /// image later starts with a layout transition, a barrier that orders it after the
    /// prologue.
    pub fn prologue(&mut self) -> Result<vk::CommandBuffer, SessionError> {
        let f = &mut self.frames.current;
        if !f.prologue_open {
            let info = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            // SAFETY: the prologue is in the initial state (new, or its pool was reset when
            // the frame was recycled, and it was not begun since).
            unsafe { self.raw.begin_command_buffer(f.prologue, &info) }
                .map_err(|e| vk_error("vkBeginCommandBuffer", e))?;
            f.prologue_open = true;
        }
        self.rec.work = true;
        Ok(f.prologue)
    }

    /// Serial of the frame being recorded.
    pub fn serial(&self) -> u64 {
        self.frames.current.serial
    }

    /// Arena bytes of the current frame.
    pub fn arena(&mut self, size: u64, align: u64) -> Result<Slice, SessionError> {
        self.frames
            .current
            .arena
            .alloc(&self.alloc, size, align)
            .map_err(|e| vk_error("arena allocation", e))
    }

    /// A descriptor set of `layout` from the current frame's pools.
    pub fn allocate_set(
        &mut self,
        layout: vk::DescriptorSetLayout,
    ) -> Result<vk::DescriptorSet, SessionError> {
        let layouts = [layout];
        loop {
            let f = &mut self.frames.current;
            if let Some(&pool) = f.desc_pools.get(f.desc_next) {
                let info = vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts);
                let mut set = vk::DescriptorSet::null();
                // SAFETY: a live pool of this frame and a live layout; the pool is reset
                // only when the frame retires; one set asked for, one written. (The raw
                // call: ash's wrapper returns a new vector, an allocation per draw.)
                let result = unsafe {
                    (self.raw.fp_v1_0().allocate_descriptor_sets)(
                        self.raw.handle(),
                        &info,
                        &mut set,
                    )
                }
                .result();
                match result {
                    Ok(()) => {
                        count(&self.stats.descriptor_sets);
                        return Ok(set);
                    }
                    Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY)
                    | Err(vk::Result::ERROR_FRAGMENTED_POOL) => {
                        f.desc_next += 1;
                        continue;
                    }
                    Err(e) => return Err(vk_error("vkAllocateDescriptorSets", e)),
                }
            }
            let sizes = [
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                    descriptor_count: SETS_PER_POOL,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER,
                    descriptor_count: SETS_PER_POOL * 4,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                    descriptor_count: SETS_PER_POOL * 8,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                    descriptor_count: SETS_PER_POOL,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::STORAGE_BUFFER,
                    descriptor_count: SETS_PER_POOL * 2,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::STORAGE_TEXEL_BUFFER,
                    descriptor_count: SETS_PER_POOL,
                },
                // Room for one set of a program with every image slot, whatever the others.
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::STORAGE_IMAGE,
                    descriptor_count: SETS_PER_POOL * 2
                        + tessera_wire::state::MAX_IMAGE_SLOTS as u32,
                },
            ];
            let info = vk::DescriptorPoolCreateInfo::default()
                .max_sets(SETS_PER_POOL)
                .pool_sizes(&sizes);
            // SAFETY: a live device; a valid create info.
            let pool = unsafe { self.raw.create_descriptor_pool(&info, None) }
                .map_err(|e| vk_error("vkCreateDescriptorPool", e))?;
            f.desc_pools.push(pool);
        }
    }

    /// Ends recording and submits the current frame; starts the next one. Returns the
    /// serial submitted.
    pub fn submit(&mut self) -> Result<u64, SessionError> {
        self.submit_with(&[], &[])
    }

    /// [`VkPipe::submit`], waiting on semaphores (each at its stages) before the frame's
    /// commands and signalling others after them (a frame presented into a window).
    pub fn submit_with(
        &mut self,
        waits: &[(vk::Semaphore, vk::PipelineStageFlags)],
        signals: &[vk::Semaphore],
    ) -> Result<u64, SessionError> {
        self.end_pass()?;
        // A command buffer must not end with conditional rendering active: it ends here
        // and begins again in the next one (`condition.rs`).
        let predicate = self.predicate_end();
        let cmd = self.frames.current.cmd;
        let fence = self.frames.current.fence;
        let (wait_semaphores, wait_stages): (Vec<_>, Vec<_>) = (self.frames.waits.drain(..))
            .map(|s| (s, vk::PipelineStageFlags::ALL_COMMANDS))
            .chain(waits.iter().copied())
            .unzip();
        // SAFETY: the command buffer is recording (begin_frame) with no render pass open
        // (end_pass above); the queue is used by this thread only (a host's, under its
        // lock); the fence is unsignalled (new or reset at recycle); the caller's semaphores
        // are live, those waited on have a signal pending and those signalled none.
        unsafe {
            let prologue = self.frames.current.prologue;
            let cmds: &[vk::CommandBuffer] = if self.frames.current.prologue_open {
                self.raw
                    .end_command_buffer(prologue)
                    .map_err(|e| vk_error("vkEndCommandBuffer", e))?;
                &[prologue, cmd]
            } else {
                &[cmd]
            };
            self.raw
                .end_command_buffer(cmd)
                .map_err(|e| vk_error("vkEndCommandBuffer", e))?;
            let submit = vk::SubmitInfo::default()
                .command_buffers(cmds)
                .wait_semaphores(&wait_semaphores)
                .wait_dst_stage_mask(&wait_stages)
                .signal_semaphores(signals);
            let _queue = self.gpu.lock_queue();
            self.raw
                .queue_submit(self.gpu.queue, &[submit], fence)
                .map_err(|e| vk_error("vkQueueSubmit", e))?;
        }
        count(&self.stats.submits);
        let serial = self.frames.current.serial;
        // Retire what already finished, without waiting.
        while let Some(f) = self.frames.in_flight.front() {
            // SAFETY: a fence of this device.
            if unsafe { self.raw.get_fence_status(f.fence) } != Ok(true) {
                break;
            }
            self.retire_oldest()?;
        }
        let next = if self.frames.in_flight.len() >= MAX_IN_FLIGHT {
            self.retire_oldest()?;
            self.frames.free.pop()
        } else {
            self.frames.free.pop()
        };
        let mut next = match next {
            Some(f) => f,
            None => Frame::new(&self.raw, self.frames.family)?,
        };
        next.serial = serial + 1;
        let done = std::mem::replace(&mut self.frames.current, next);
        self.frames.in_flight.push_back(done);
        self.begin_frame()?;
        if let Some(a) = predicate {
            self.predicate_begin(a);
        }
        Ok(serial)
    }

    /// Waits for the oldest submission and recycles its frame.
    fn retire_oldest(&mut self) -> Result<(), SessionError> {
        let Some(mut f) = self.frames.in_flight.pop_front() else {
            return Ok(());
        };
        // SAFETY: a fence of a submitted frame.
        unsafe { self.raw.wait_for_fences(&[f.fence], true, u64::MAX) }
            .map_err(|e| vk_error("vkWaitForFences", e))?;
        self.frames.completed = f.serial;
        f.recycle(&self.raw, &self.alloc);
        self.frames.free.push(f);
        Ok(())
    }

    /// Waits until submission `serial` has retired (submitting the current frame first if
    /// that is the one).
    pub fn wait_serial(&mut self, serial: u64) -> Result<(), SessionError> {
        if serial >= self.frames.current.serial {
            self.submit()?;
        }
        while self.frames.completed < serial {
            if self.frames.in_flight.is_empty() {
                break;
            }
            self.retire_oldest()?;
        }
        Ok(())
    }

    /// Whether submission `serial` has finished, waiting up to `timeout_ns`.
    pub fn serial_done(&mut self, serial: u64, timeout_ns: u64) -> Result<bool, SessionError> {
        if serial >= self.frames.current.serial {
            self.submit()?;
        }
        if self.frames.completed >= serial {
            return Ok(true);
        }
        let Some(f) = self.frames.in_flight.iter().find(|f| f.serial == serial) else {
            return Ok(true);
        };
        // SAFETY: a fence of a submitted frame.
        match unsafe { self.raw.wait_for_fences(&[f.fence], true, timeout_ns) } {
            Ok(()) => {
                while self.frames.completed < serial && !self.frames.in_flight.is_empty() {
                    self.retire_oldest()?;
                }
                Ok(true)
            }
            Err(vk::Result::TIMEOUT) => Ok(false),
            Err(e) => Err(vk_error("vkWaitForFences", e)),
        }
    }

    /// Submits the recorded work and waits for it: the data of a read-back is then ready.
    pub fn finish_readback(&mut self) -> Result<(), SessionError> {
        let serial = self.submit()?;
        self.wait_serial(serial)
    }

    /// Waits for every submission (teardown).
    pub fn retire_all(&mut self) {
        while !self.frames.in_flight.is_empty() {
            if self.retire_oldest().is_err() {
                break;
            }
        }
    }
}
